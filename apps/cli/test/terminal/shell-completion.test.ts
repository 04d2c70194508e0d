/**
 * At a terminal: the bash and zsh completion scripts.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newHome, startWorld, stopWorld } from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);

function run(file: string, args: string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('bash completion', () => {
  let scriptFile: string;
  let cwd: string;
  beforeAll(async () => {
    const home = await newHome();
    const result = await home.lfk(['completion', 'bash']);
    if (result.code !== 0) throw new Error(`lfk completion bash: ${result.stderr}`);
    scriptFile = join(home.dir, 'lfk.bash');
    await writeFile(scriptFile, result.stdout);
    cwd = join(home.dir, 'project');
    await mkdir(cwd);
    await writeFile(join(cwd, 'fields.json'), '[]');
    await writeFile(join(cwd, 'notes.txt'), '');
  });

  /** What bash offers for the last of `words` (the word being typed; '' after a space). */
  async function complete(words: string[]): Promise<string[]> {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansions, not a template.
    const driver = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _lfk_completions; printf \'%s\\n\' "${COMPREPLY[@]}"';
    const result = await run('bash', ['--norc', '--noprofile', '-c', driver, 'bash', scriptFile, ...words], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    return result.stdout.split('\n').filter(Boolean);
  }

  it('is valid bash that registers the function for lfk', async () => {
    const syntax = await run('bash', ['--norc', '--noprofile', '-n', scriptFile]);
    expect(syntax.code, syntax.stderr).toBe(0);
    const registered = await run('bash', ['--norc', '--noprofile', '-c', 'source "$1"; complete -p lfk', 'bash', scriptFile]);
    expect(registered.code, registered.stderr).toBe(0);
    expect(registered.stdout).toContain('_lfk_completions');
  });

  it('completes commands and subcommands', async () => {
    expect(await complete(['lfk', 'ke'])).toEqual(['keys']);
    expect(await complete(['lfk', 'su'])).toEqual(['submissions']);
    const afterKeys = await complete(['lfk', 'keys', '']);
    expect(afterKeys.filter((w) => !w.startsWith('-'))).toEqual(['create', 'get', 'list', 'revoke', 'roll', 'update', 'usage']);
    expect(afterKeys).toContain('--help');
    expect(afterKeys).toContain('--json');
    expect(await complete(['lfk', 'keys', 're'])).toEqual(['revoke']);
    // A global flag before the command does not get in the way.
    expect(await complete(['lfk', '--json', 'keys', 'li'])).toEqual(['list']);
  });

  it('completes flags and their values', async () => {
    expect(await complete(['lfk', 'forms', 'create', '--mo'])).toEqual(['--mode']);
    expect((await complete(['lfk', 'forms', 'create', '--m'])).sort()).toEqual(['--max-submissions', '--mode']);
    expect((await complete(['lfk', 'forms', 'create', '--mode', ''])).sort()).toEqual(['api_key', 'browser']);
    expect(await complete(['lfk', 'keys', 'revoke', '--y'])).toEqual(['--yes']);
  });

  it('completes file names after --schema and --data-json', async () => {
    const all = await complete(['lfk', 'forms', 'create', '--schema', '']);
    expect(all).toContain('fields.json');
    expect(all).toContain('notes.txt');
    expect(await complete(['lfk', 'forms', 'create', '--schema', 'fi'])).toEqual(['fields.json']);
    expect(await complete(['lfk', 'submissions', 'create', 'form_x', '--data-json', 'fi'])).toEqual(['fields.json']);
  });
});

// CI installs zsh; without it on PATH these tests are skipped on a developer machine.
const hasZsh = process.env.PATH?.split(':').some((dir) => dir && existsSync(join(dir, 'zsh'))) ?? false;

describe('zsh completion', () => {
  let scriptFile: string;
  beforeAll(async () => {
    const home = await newHome();
    const result = await home.lfk(['completion', 'zsh']);
    if (result.code !== 0) throw new Error(`lfk completion zsh: ${result.stderr}`);
    expect(result.stdout.startsWith('#compdef lfk')).toBe(true);
    scriptFile = join(home.dir, '_lfk');
    await writeFile(scriptFile, result.stdout);
  });

  it.skipIf(!hasZsh)('is valid zsh', async () => {
    const syntax = await run('zsh', ['-n', scriptFile]);
    expect(syntax.code, syntax.stderr).toBe(0);
  });

  it.skipIf(!hasZsh)('offers commands, flags and values', async () => {
    // The completion system's functions are replaced by stand-ins that print what they were given.
    const driver = [
      'compdef() { print -r -- "compdef $*"; }',
      'compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@"; }',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh parameter expansions, not a template.
      '_describe() { local -a items; items=("${(@P)2}"); print -rl -- "${items[@]%%:*}"; }',
      '_files() { print -r -- "(files)"; }',
      'source "$1"; shift',
      'words=("$@"); CURRENT=$#words',
      '_lfk',
    ].join('\n');
    const complete = async (words: string[]) => {
      const result = await run('zsh', ['-f', '-c', driver, 'zsh', scriptFile, ...words]);
      expect(result.code, result.stderr).toBe(0);
      return result.stdout.split('\n').filter((line) => line && !line.startsWith('compdef '));
    };
    const afterKeys = await complete(['lfk', 'keys', '']);
    expect(afterKeys).toEqual(['create', 'get', 'list', 'revoke', 'roll', 'update', 'usage']);
    expect(await complete(['lfk', 'forms', 'create', '--m'])).toContain('--mode');
    expect((await complete(['lfk', 'forms', 'create', '--mode', ''])).sort()).toEqual(['api_key', 'browser']);
    expect(await complete(['lfk', 'forms', 'create', '--schema', ''])).toEqual(['(files)']);
  });

  it('fish is not a supported shell: usage error', async () => {
    const result = await (await newHome()).lfk(['completion', 'fish']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toContain('fish');
  });
});
