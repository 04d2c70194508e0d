import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, sourceFiles, workspaces } from './support/workspace-sources.ts';

// biome's formatter wraps code at 160 columns but never a string, a comment or JSX text: those are
// held here. The generated migrations are left as MikroORM wrote them (their SQL is what ran).
const MAX = 160;
const GENERATED = /\/migrations\/Migration\w+\.ts$/;

describe('source lines', () => {
  it(`none is over ${MAX} characters, in any workspace or the CI's own code`, () => {
    const files = [...workspaces(), join(REPO, '.ci')].flatMap((dir) => sourceFiles(dir, /\.(tsx?|m?js)$/)).filter((file) => !GENERATED.test(file));
    expect(files.length).toBeGreaterThan(500);
    const long = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => ([...line].length > MAX ? [`${relative(REPO, file)}:${i + 1} (${[...line].length})`] : [])),
    );
    expect(long).toEqual([]);
  });
});
