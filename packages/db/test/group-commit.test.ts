/**
 * Issue 39: the embedded database's group commit (src/group-commit.ts): writes queued while one is
 * in flight go together, each learns its own outcome, and a batch stays within its bounds.
 */
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../src/group-commit.ts';

/** A writer whose batches the test lets finish one at a time, recording what each held. */
function heldWriter(fails: (item: string) => boolean = () => false) {
  const batches: string[][] = [];
  const releases: (() => void)[] = [];
  const write = async (items: string[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => releases.push(resolve));
    const bad = items.find(fails);
    if (bad) throw new Error(`${bad} refused`);
  };
  const releaseNext = async () => {
    while (releases.length === 0) await new Promise((resolve) => setImmediate(resolve));
    releases.shift()!();
  };
  return { batches, write, releaseNext };
}

describe('GroupCommit', () => {
  it('writes a lone item at once, and what queues meanwhile in one batch', async () => {
    const writer = heldWriter();
    const group = new GroupCommit(writer.write, () => 1, { maxItems: 10, maxWeight: 100 });
    const first = group.add('a');
    expect(writer.batches).toEqual([['a']]);
    const rest = ['b', 'c', 'd'].map((item) => group.add(item));
    await writer.releaseNext();
    await first;
    await writer.releaseNext();
    await Promise.all(rest);
    expect(writer.batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('a batch that fails is written again one item at a time: only the bad item is refused', async () => {
    const writer = heldWriter((item) => item === 'bad');
    const group = new GroupCommit(writer.write, () => 1, { maxItems: 10, maxWeight: 100 });
    const first = group.add('a');
    const outcomes = ['b', 'bad', 'c'].map((item) =>
      group.add(item).then(
        () => 'written',
        (error: Error) => error.message,
      ),
    );
    for (let i = 0; i < 5; i++) await writer.releaseNext();
    await first;
    expect(await Promise.all(outcomes)).toEqual(['written', 'bad refused', 'written']);
    expect(writer.batches).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('keeps a batch within its count and its weight, but always takes one item however heavy', async () => {
    const writer = heldWriter();
    const weights: Record<string, number> = { a: 1, b: 1, c: 1, d: 1, huge: 500, e: 60, f: 60 };
    const group = new GroupCommit(writer.write, (item: string) => weights[item]!, { maxItems: 3, maxWeight: 100 });
    const all = ['a', 'b', 'c', 'd', 'huge', 'e', 'f'].map((item) => group.add(item));
    for (let i = 0; i < 5; i++) await writer.releaseNext();
    await Promise.all(all);
    expect(writer.batches).toEqual([['a'], ['b', 'c', 'd'], ['huge'], ['e'], ['f']]);
  });
});
