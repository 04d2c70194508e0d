import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { useTestServer } from '@lfk/server/testing';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const serverDir = resolve(import.meta.dirname, '../..');
/** The CLIs take a few seconds each on a loaded machine. */
const CLI_TIMEOUT_MS = 120_000;

/** A package's command-line entry point, run on this Node. */
function binOf(pkg: string, name: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifest), bin[name]!);
}

/** Runs a linter; a finding makes it exit non-zero, and its report is what the test reads either way. */
async function lint(args: string[]): Promise<string> {
  try {
    return (await run(process.execPath, args, { cwd: serverDir, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

const t = useTestServer();
const dir = mkdtempSync(join(tmpdir(), 'lfk-openapi-'));
const file = join(dir, 'openapi.json');
let doc: Record<string, any>;

beforeAll(async () => {
  doc = (await t.request('GET', '/v1/openapi.json')).json;
  writeFileSync(file, JSON.stringify(doc));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the OpenAPI document, as the server serves it', () => {
  it("has no error and no warning under Redocly's recommended rules (redocly.yaml)", { timeout: CLI_TIMEOUT_MS }, async () => {
    const report = JSON.parse(await lint([binOf('@redocly/cli', 'redocly'), 'lint', file, '--config', 'redocly.yaml', '--format', 'json']));
    expect(report.problems.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("has no finding of any severity under Spectral's spectral:oas rules (.spectral.yaml)", { timeout: CLI_TIMEOUT_MS }, async () => {
    const out = await lint([
      binOf('@stoplight/spectral-cli', 'spectral'),
      'lint',
      file,
      '--ruleset',
      '.spectral.yaml',
      '--fail-severity',
      'hint',
      '--format',
      'json',
      '--quiet',
    ]);
    const results = JSON.parse(out) as { code: string; message: string; path: string[] }[];
    expect(results.map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`)).toEqual([]);
  });

  it('describes every parameter, and tags every operation with a described tag', () => {
    const tags = new Map(doc.tags.map((tag: { name: string; description: string }) => [tag.name, tag.description]));
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const label = `${method} ${path}`;
        expect(operation.tags, label).toHaveLength(1);
        expect(tags.get(operation.tags[0]), label).toBeTruthy();
        for (const parameter of operation.parameters ?? []) {
          const resolved = parameter.$ref ? doc.components.parameters[parameter.$ref.split('/').at(-1)] : parameter;
          expect(resolved.description, `${label} ${resolved.name}`).toBeTruthy();
        }
      }
    }
  });

  it('gives openapi-typescript a named type for every resource and typed request headers', async () => {
    const types = astToString(await openapiTS(doc as never));
    for (const name of [
      'Form',
      'CreatedForm',
      'ApiKey',
      'CreatedApiKey',
      'Workspace',
      'Member',
      'Project',
      'User',
      'Submission',
      'AuditEvent',
      'Error',
      'ErrorCode',
    ]) {
      expect(types, name).toMatch(new RegExp(`\\n {8}${name}: `));
    }
    expect(types).toContain('"application/json": components["schemas"]["FormList"];');
    // The create-form operation takes its Idempotency-Key as a typed header.
    const createForm = types.slice(types.indexOf('"forms.create": {'));
    expect(createForm.slice(0, createForm.indexOf('requestBody'))).toMatch(
      /header\?: \{[^}]*"Idempotency-Key"\?: components\["parameters"\]\["IdempotencyKey"\]/,
    );
    expect(types).toMatch(/IdempotencyKey: string;/);
  });

  it('types the payload of a delivery and of an event as the event it is, not as unknown', () => {
    const event = doc.components.schemas.SubmissionCreatedEvent;
    expect(event.properties.type).toMatchObject({ const: 'submission.created' });
    expect(event.properties.data.properties.submission.required).toEqual(['id', 'form_id', 'created_at', 'via', 'values']);
    for (const holder of ['WebhookDelivery', 'FormEvent']) {
      expect(JSON.stringify(doc.components.schemas[holder].properties.payload), holder).toContain('#/components/schemas/SubmissionCreatedEvent');
    }
  });
});
