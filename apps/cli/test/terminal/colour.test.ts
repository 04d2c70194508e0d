/**
 * At a terminal: colour, and when there is none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { owner, ownerKey, server, startWorld, stopWorld } from '../harness.ts';
import { ESC, onTerminal, screenLines } from './fixtures.ts';

// The owner, signed up with a key to list.
beforeAll(async () => {
  await startWorld();
  await ownerKey('colourful');
});
afterAll(stopWorld);

describe('colour', () => {
  it('keys list on a terminal is coloured', async () => {
    const { code, output } = await onTerminal(owner, ['keys', 'list']).exit;
    expect(code, output).toBe(0);
    expect(output).toContain('colourful');
    expect(output).toMatch(ESC);
  });

  it('keys list on a terminal with NO_COLOR=1 is not', async () => {
    const { code, output } = await onTerminal(owner, ['keys', 'list'], { env: { NO_COLOR: '1' } }).exit;
    expect(code, output).toBe(0);
    expect(output).toContain('colourful');
    expect(output).not.toMatch(ESC);
  });

  it('on a terminal, our colours stay while an escape sequence in a key name is shown inert', async () => {
    const created = await owner.lfk(['keys', 'create', '--name', 'to-be-hostile', '--json']);
    await server.sql('update api_keys set name = ? where id = ?', ['\u001b[2J\u001b]0;pwned\u0007hostile', created.json.id]);
    const { code, output } = await onTerminal(owner, ['keys', 'list']).exit;
    expect(code, output).toBe(0);
    expect(output).toMatch(ESC);
    expect(output).toContain('^[[2J^[]0;pwned^Ghostile');
    expect(output).not.toContain('\u001b[2J');
    expect(output).not.toContain('\u001b]0;');
  });

  it('keys list in a 60-column terminal fits it: no line wider, names cut with an ellipsis, nothing broken mid-word', async () => {
    await owner.lfk(['keys', 'create', '--name', 'a rather long name for the marketing site deploy bot']);
    const { code, output } = await onTerminal(owner, ['keys', 'list'], { columns: 60, env: { NO_COLOR: '1' } }).exit;
    expect(code, output).toBe(0);
    // As the terminal shows it: a spinner drawn while the machine was slow is overwritten, not a line of its own.
    const lines = screenLines(output).filter((line) => !line.startsWith('stty'));
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(60);
    // Too narrow for every column even with names cut: the optional ones (created, last used, prefix) go.
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS$/);
    expect(output).toMatch(/a rather[^\n]*…/);
    expect(output).toMatch(/\sactive\s/);
    expect(output).not.toContain('marketing site deploy bot');
  });

  it('keys list through a pipe is never coloured', async () => {
    const result = await owner.lfk(['keys', 'list']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('colourful');
    expect(result.stdout).not.toMatch(ESC);
    expect(result.stderr).not.toMatch(ESC);
  });
});

// Node's pipes are sockets, which bash takes for rshd and reads ~/.bashrc: hence --norc everywhere.
