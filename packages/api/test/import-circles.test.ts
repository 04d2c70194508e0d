import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, sourceFiles, workspaces } from './support/workspace-sources.ts';

// No module imports itself through others (a dynamic `import()` counts: it hides a circle, it does not
// break it), in any workspace, but MikroORM's idiom: an entity names
// its repository (`repository: () => …`) and the repository types its rows with the entity.

/** Every TypeScript file of the repository's workspaces (repo-relative) → the files it imports by a relative path. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of workspaces().flatMap((workspace) => sourceFiles(workspace))) {
    const from = relative(REPO, file);
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:\bfrom|^\s*import|\bimport\()\s*'(\.{1,2}\/[^']+)'/gm)].map((m) => normalize(join(dirname(from), m[1]!)));
    graph.set(
      from,
      targets.filter((target) => existsSync(join(REPO, target))),
    );
  }
  return graph;
}

/** The groups of files that import each other in a circle (Tarjan's strongly connected components of more than one file). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** An entity and its repository, and nothing else. */
const isEntityAndRepository = (group: string[]) =>
  group.length === 2 && group[0]!.startsWith('packages/db/src/entities/') && group[1]!.startsWith('packages/db/src/repositories/');

describe('import circles', () => {
  it('has none but an entity and its repository', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(500);
    const all = circles(graph);
    expect(all.filter(isEntityAndRepository).length).toBeGreaterThan(0);
    expect(all.filter((group) => !isEntityAndRepository(group))).toEqual([]);
  });
});
