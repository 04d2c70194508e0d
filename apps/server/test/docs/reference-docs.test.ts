/**
 * The reference in docs/ keeps up with the code: every REST route is in docs/reference/api.md's
 * route index, every environment variable the server reads is in docs/reference/settings.md's
 * table, and every relative link in the README and docs/ leads to a file (and a heading) that exists.
 */
import { restRoutes } from '@lfk/api';
import { loadConfig } from '@lfk/server';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** A file's lines outside fenced code blocks. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('```');
  });
}

/** The lines of a `## heading` section, up to the next `## `. */
function section(text: string, heading: string): string[] {
  const lines = prose(text);
  const start = lines.indexOf(`## ${heading}`);
  expect(start, `no "## ${heading}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

describe('docs/reference/api.md', () => {
  it('lists every REST route with its procedure, and no route that is not there', () => {
    const rows = section(read('docs/reference/api.md'), 'Every route, and its procedure').flatMap((line) => {
      const row = /^\| `(GET|POST|PUT|PATCH|DELETE) (\/\S+)` \| `([\w.]+)` \|$/.exec(line);
      return row ? [{ route: `${row[1]} ${row[2]}`, procedure: row[3] }] : [];
    });
    const routes = restRoutes.map((r) => ({ route: `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`, procedure: r.procedure as string }));
    expect(routes.length).toBeGreaterThan(50);
    // The row to add, as the table writes it, is in the failure message.
    const missing = routes.filter((r) => !rows.some((row) => row.route === r.route && row.procedure === r.procedure));
    expect(missing.map((r) => `| \`${r.route}\` | \`${r.procedure}\` |`)).toEqual([]);
    const stale = rows.filter((row) => !routes.some((r) => r.route === row.route && r.procedure === row.procedure));
    expect(stale).toEqual([]);
  });
});

describe('docs/reference/settings.md', () => {
  it('has a row for every environment variable the server reads, and none it does not', () => {
    // The variables config.ts's schema reads, caught as it reads them from an empty environment.
    const asked = new Set<string>();
    loadConfig(
      new Proxy({} as Record<string, string | undefined>, {
        get(_target, name) {
          if (typeof name === 'string' && /^[A-Z][A-Z0-9_]*$/.test(name)) asked.add(name);
          return undefined;
        },
      }),
    );
    const variables = [...asked];
    const table = section(read('docs/reference/settings.md'), 'Configuration').filter((line) => line.startsWith('| `'));
    const documented = table.flatMap((row) => [...row.split(' | ')[0]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
    expect(variables).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'LFK_SECRET_KEY', 'LFK_RATE_LIMIT_LOGIN']));
    expect(variables.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name) => !variables.includes(name))).toEqual([]);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    found.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return found;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

describe('links in the README and docs/', () => {
  const files = ['README.md', ...markdownFiles('docs')];

  it('each relative link names a file that exists, and a heading of it that exists', () => {
    expect(files).toEqual(expect.arrayContaining(['docs/reference/api.md', 'docs/reference/settings.md', 'docs/decisions.md']));
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const line of prose(read(file))) {
        for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^[a-z]+:/i.test(target!)) continue;
          checked++;
          const [path, anchor] = target!.split('#') as [string, string | undefined];
          const to = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), decodeURIComponent(path)));
          if (!existsSync(join(ROOT, to))) broken.push(`${file}: ${target} (no ${to})`);
          else if (anchor !== undefined && to.endsWith('.md') && !anchors(read(to)).has(anchor))
            broken.push(`${file}: ${target} (no heading #${anchor} in ${to})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });
});
