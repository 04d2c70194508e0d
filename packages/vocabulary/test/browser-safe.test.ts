import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The dashboard's bundle, the CLI's bundle and the server all take this package's sources as they
// are: anything it imported would go with it into each. Its tsconfig keeps Node and DOM globals out.

const SRC = join(import.meta.dirname, '..', 'src');
const files = readdirSync(SRC).filter((name) => name.endsWith('.ts'));
const specifiersOf = (file: string) =>
  [...readFileSync(join(SRC, file), 'utf8').matchAll(/(?:\bfrom|\bimport\(?)\s*['"]([^'"]+)['"]/g)].map((match) => match[1]!);

describe('@lfk/vocabulary', () => {
  it('imports nothing but its own files', () => {
    const outside = files.flatMap((file) =>
      specifiersOf(file)
        .filter((spec) => !(spec.startsWith('./') && files.includes(spec.slice(2))))
        .map((spec) => `${file} → ${spec}`),
    );
    expect(outside).toEqual([]);
  });

  it('exports every file from its index', () => {
    expect(specifiersOf('index.ts').sort()).toEqual(files.filter((file) => file !== 'index.ts').map((file) => `./${file}`));
  });
});
