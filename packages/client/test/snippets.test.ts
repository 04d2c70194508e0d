/**
 * The snippets a form's owner pastes, run as pasted: the curl call in bash and the fetch call in
 * Node, against a real listening server, with a key in `LFK_API_KEY` and example files on disk.
 * A form with a file field is sent multipart (curl's `-F`, a `FormData`); one without, as JSON.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Account, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLfkClient,
  curlSubmissionSnippet,
  fetchSubmissionSnippet,
  htmlFormSnippet,
  kitFormSnippet,
  reactFormSnippet,
  type SnippetForm,
} from '../src/index.ts';

const run = promisify(execFile);
const t = useTestServer();
let baseUrl: string;
let owner: Account;
let key: string;
let dir: string;

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), Buffer.alloc(512, 0x20), Buffer.from('\n%%EOF\n')]);
const NOTES = Buffer.from('Notes, in plain text.\n');

const applicationSchema = [
  { name: 'name', type: 'text', required: true, label: "Name (it's yours)" },
  { name: 'age', type: 'number' },
  { name: 'terms', type: 'checkbox', required: true },
  { name: 'cv', type: 'file', required: true, accept: ['application/pdf'], label: 'CV' },
  { name: 'notes', type: 'file', multiple: true, max_files: 3 },
] as const;

beforeAll(async () => {
  baseUrl = await t.server.app.listen({ port: 0, host: '127.0.0.1' });
  ({ owner, key } = await t.signupWithKey());
  dir = await mkdtemp(join(tmpdir(), 'lfk-snippets-'));
  // The example files the snippets name, where a person would keep them.
  await writeFile(join(dir, 'cv.pdf'), PDF);
  await writeFile(join(dir, 'notes.bin'), NOTES);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const env = () => ({ PATH: process.env.PATH, LFK_API_KEY: key });

async function createForm(schema: readonly object[]): Promise<SnippetForm> {
  return createLfkClient({ baseUrl, apiKey: key }).forms.create.mutate({ name: 'Snippets', schema: schema as never, submission_mode: 'api_key' });
}

/** The submission stored last on the form, as a member reads it. */
async function latest(formId: string) {
  const session = createLfkClient({ baseUrl, sessionToken: owner.token });
  const page = await session.submissions.list.query({ form_id: formId });
  expect(page.data).toHaveLength(1);
  return page.data[0]!;
}

describe('a form with file fields', () => {
  it('the HTML form posts multipart, with an input of type file for each file field', async () => {
    const form = await createForm(applicationSchema);
    const html = htmlFormSnippet(form, baseUrl);
    expect(html).toContain(`<form method="post" action="${baseUrl}/v1/forms/${form.id}/submissions" enctype="multipart/form-data">`);
    expect(html).toContain('<label>CV\n    <input type="file" name="cv" accept="application/pdf" required>\n  </label>');
    expect(html).toContain('<input type="file" name="notes" multiple>');
  });

  it('the curl call, run in bash, sends the values and the files from disk', async () => {
    const form = await createForm(applicationSchema);
    const snippet = curlSubmissionSnippet(form, baseUrl);
    expect(snippet).toContain("-F 'name=Your Name (it'\\''s yours)'");
    expect(snippet).toContain('-F cv=@cv.pdf');
    expect(snippet).not.toContain('application/json');

    const { stdout } = await run('bash', ['-c', `${snippet} --silent --show-error --fail-with-body`], { cwd: dir, env: env() });
    expect(JSON.parse(stdout)).toMatchObject({ id: expect.stringMatching(/^sub_/) });
    const stored = await latest(form.id);
    expect(stored.data).toMatchObject({ name: "Your Name (it's yours)", age: 42, terms: true });
    expect(stored.files.map((f) => [f.field, f.name, f.size, f.content_type])).toEqual([
      ['cv', 'cv.pdf', PDF.length, 'application/pdf'],
      ['notes', 'notes.bin', NOTES.length, 'text/plain'],
    ]);
  });

  it('the fetch call, run in Node, sends a FormData with the files from disk', async () => {
    const form = await createForm(applicationSchema);
    const snippet = fetchSubmissionSnippet(form, baseUrl);
    expect(snippet).toContain('const body = new FormData();');
    expect(snippet).not.toContain('content-type');
    await writeFile(join(dir, 'send.mjs'), `${snippet}\nconsole.log(JSON.stringify({ sent: true }));\n`);

    await run(process.execPath, ['send.mjs'], { cwd: dir, env: env() });
    const stored = await latest(form.id);
    expect(stored.data).toMatchObject({ name: "Your Name (it's yours)", age: 42, terms: true });
    expect(stored.files.map((f) => [f.field, f.name, f.size])).toEqual([
      ['cv', 'cv.pdf', PDF.length],
      ['notes', 'notes.bin', NOTES.length],
    ]);
  });
});

describe('a form without files', () => {
  const contactSchema = [
    { name: 'email', type: 'email', required: true },
    { name: 'message', type: 'textarea' },
  ] as const;

  it('the HTML form is urlencoded; curl and fetch send JSON', async () => {
    const form = await createForm(contactSchema);
    expect(htmlFormSnippet(form, baseUrl)).toContain(`<form method="post" action="${baseUrl}/v1/forms/${form.id}/submissions">`);
    expect(fetchSubmissionSnippet(form, baseUrl)).toContain("'content-type': 'application/json'");
    const snippet = curlSubmissionSnippet(form, baseUrl);
    expect(snippet).toContain(`-d '{"email":"ada@example.com","message":"Your message"}'`);
    await run('bash', ['-c', `${snippet} --silent --show-error --fail-with-body`], { cwd: dir, env: env() });
    expect((await latest(form.id)).data).toEqual({ email: 'ada@example.com', message: 'Your message' });
  });

  it('the form that stays on the page is the browser kit’s tag before the same HTML form', async () => {
    const form = await createForm(contactSchema);
    const tag = `<script src="${baseUrl}/v1/kit/lfk-0.1.0-0123456789.js" integrity="sha384-x" crossorigin="anonymous" defer></script>`;
    expect(kitFormSnippet(form, baseUrl, tag)).toBe(`${tag}\n${htmlFormSnippet(form, baseUrl)}`);
  });

  it('the React snippet names the form and the server (it is rendered for real in apps/web/test/react.test.ts)', async () => {
    const form = await createForm(contactSchema);
    const snippet = reactFormSnippet(form, baseUrl);
    expect(snippet).toContain(`const LFK = '${baseUrl}';\nconst FORM_ID = '${form.id}';`);
    expect(snippet).toContain('<LfkForm formId={FORM_ID} baseUrl={LFK} description={description}');
  });
});
