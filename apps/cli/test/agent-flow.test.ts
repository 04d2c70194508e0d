import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { until } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Home, newHome, owner, ownerKey, server, startWorld, stopWorld, workspaceId } from './harness.ts';

// An owner signs up and makes a key; an "agent" with only LFK_API_KEY (no session, no config)
// then drives forms and submissions, and a home with no credentials at all makes an unclaimed form.

// The owner (harness.ts) signed up through the CLI; its base URL comes from the config that signup wrote.
/** No session: LFK_BASE_URL and LFK_API_KEY in its environment, nothing else. */
let agent: Home;
/** No credentials at all. */
let stranger: Home;
let agentKey: { id: string; key: string };

// Forms made along the way, used by later tests in this file (they run in order).
let contactForm: any; // --field shorthand, api_key mode
let typedForm: any; // --schema FILE: email, number, checkbox; api_key mode
const submissionIds: string[] = [];
/** Every API key the CLI printed, to look for on disk. */
const printedKeys: string[] = [];

const errorLine = (stderr: string) => stderr.split('\n')[0];
const detailLines = (stderr: string) => stderr.split('\n').filter((line) => /^ {2}\S/.test(line));

async function formRow(id: string): Promise<any> {
  const rows = await server.sql('select * from forms where id = ?', [id]);
  expect(rows).toHaveLength(1);
  return rows[0];
}

const asJson = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** The server's log lines for emails to `to` (no SMTP_URL: the LOG transport prints them). */
const emailLogsTo = (to: string) => server.logs.map((line) => JSON.parse(line)).filter((entry) => entry.email?.to === to);

beforeAll(async () => {
  await startWorld();
  const created = await ownerKey('agent');
  expect(created.workspace_id).toBe(workspaceId);
  expect(created.key).toMatch(/^lfk_/);
  agentKey = { id: created.id, key: created.key };
  printedKeys.push(agentKey.key);
  agent = await newHome({ LFK_API_KEY: agentKey.key });
  stranger = await newHome();
});

afterAll(stopWorld);

describe('forms create (agent, API key only)', () => {
  it('creates from --field shorthand in the key workspace, with the exact schema', async () => {
    const result = await agent.lfk([
      'forms',
      'create',
      '--name',
      'Contact',
      '--mode',
      'api_key',
      '--field',
      'email:email:required',
      '--field',
      'message:textarea',
      '--field',
      'plan:select=free,pro',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const form = result.json;
    expect(form.id).toMatch(/^form_/);
    expect(form.state).toBe('claimed');
    expect(form.workspace_id).toBe(workspaceId);
    expect(form.name).toBe('Contact');
    expect(form.submission_mode).toBe('api_key');
    expect(form.schema).toEqual([
      { name: 'email', type: 'email', required: true },
      { name: 'message', type: 'textarea', required: false },
      { name: 'plan', type: 'select', required: false, options: ['free', 'pro'] },
    ]);
    expect(form.claim_token ?? null).toBeNull();
    const row = await formRow(form.id);
    expect(row.workspace_id).toBe(workspaceId);
    expect(row.state).toBe('claimed');
    expect(row.submission_mode).toBe('api_key');
    expect(row.claim_token_hash).toBeNull();
    expect(asJson(row.schema)).toEqual(form.schema);
    contactForm = form;
  });

  it('prints the id and a fields table for people', async () => {
    const result = await agent.lfk(['forms', 'create', '--name', 'Human view', '--field', 'email:email:required', '--field', 'plan:select=free,pro']);
    expect(result.code).toBe(0);
    const id = /^id\s+(form_\S+)$/m.exec(result.stdout)?.[1];
    expect(id).toBeDefined();
    expect(result.stderr).toContain(`Created form ${id} in ${workspaceId}.`);
    expect(result.stdout).toMatch(/^state\s+claimed$/m);
    expect(result.stdout).toMatch(new RegExp(`^workspace\\s+${workspaceId}$`, 'm'));
    // Through a pipe the fields are tab-separated rows (name, type, required, label, options).
    expect(result.stdout).toContain('\nemail\temail\tyes\t\t\n');
    expect(result.stdout).toContain('\nplan\tselect\tno\t\tfree, pro\n');
    expect(result.stdout).not.toContain('claim token');
    expect((await formRow(id as string)).workspace_id).toBe(workspaceId);
    // Where submissions go, and the HTML to paste: each field, and the optional select starting empty.
    expect(result.stdout).toContain(`Submissions: POST ${server.baseUrl}/v1/forms/${id}/submissions\n`);
    expect(result.stdout).toContain('Paste this into a page of your site, once its origin is allowed');
    expect(result.stdout).toContain(`<form method="post" action="${server.baseUrl}/v1/forms/${id}/submissions">`);
    expect(result.stdout).toContain('<input type="email" name="email" required>');
    expect(result.stdout).toContain('<select name="plan">\n      <option value=""></option>\n      <option>free</option>');
    // And where the browser kit's tag is, to keep the person on the page.
    expect(result.stdout).toContain(`put lfk's script before the form: ${server.baseUrl}/v1/kit gives its tag (script_tag)`);
    // And the same form in a React app.
    expect(result.stdout).toContain(`In a React app, with @lfk/react:\n\nimport { fetchPublicForm, LfkForm } from '@lfk/react';`);
    expect(result.stdout).toContain(`const FORM_ID = '${id}';`);
  });

  it('prints the call with a key for a form that takes submissions from servers', async () => {
    const result = await agent.lfk(['forms', 'create', '--name', 'Server side', '--field', 'email:email:required', '--mode', 'api_key']);
    expect(result.code, result.stderr).toBe(0);
    const id = /^id\s+(form_\S+)$/m.exec(result.stdout)?.[1];
    expect(result.stdout).toContain('From your server, with a key of the workspace in LFK_API_KEY:');
    expect(result.stdout).toContain(`curl -X POST ${server.baseUrl}/v1/forms/${id}/submissions \\\n  -H "Authorization: Bearer $LFK_API_KEY"`);
    expect(result.stdout).not.toMatch(/lfk_[0-9A-Za-z]{36}/);
    // --json prints the API's object alone.
    const json = await agent.lfk(['forms', 'create', '--name', 'Server side', '--field', 'email:email', '--mode', 'api_key', '--json']);
    expect(Object.keys(json.json)).not.toContain('snippet');
    expect(json.stdout).not.toContain('curl');
  });

  it('takes the schema from a file and from standard input', async () => {
    const schema = [
      { name: 'email', type: 'email', required: true, label: 'Your email' },
      { name: 'age', type: 'number', required: false },
      { name: 'subscribe', type: 'checkbox', required: false },
    ];
    const file = join(agent.dir, 'schema.json');
    await writeFile(file, JSON.stringify(schema));
    const fromFile = await agent.lfk(['forms', 'create', '--name', 'Typed', '--schema', file, '--mode', 'api_key', '--json']);
    expect(fromFile.code).toBe(0);
    expect(fromFile.json.schema).toEqual(schema);
    expect(fromFile.json.workspace_id).toBe(workspaceId);
    expect(asJson((await formRow(fromFile.json.id)).schema)).toEqual(schema);
    typedForm = fromFile.json;

    const stdinSchema = [
      { name: 'website', type: 'url', required: true },
      { name: 'when', type: 'date', required: false },
    ];
    const fromStdin = await agent.lfk(['forms', 'create', '--name', 'From stdin', '--schema', '-', '--json'], {
      input: JSON.stringify(stdinSchema),
    });
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.json.schema).toEqual(stdinSchema);
    expect(fromStdin.json.submission_mode).toBe('browser');
    expect(asJson((await formRow(fromStdin.json.id)).schema)).toEqual(stdinSchema);
  });

  it('rejects bad fields and schemas with the right exit code and error', async () => {
    const before = await server.sql('select count(*)::int as n from forms');

    for (const bad of ['email', 'a:b:c:d']) {
      const result = await agent.lfk(['forms', 'create', '--name', 'Bad', '--field', bad]);
      expect(result.code).toBe(2);
      expect(errorLine(result.stderr)).toMatch(/^error: invalid_field: /);
      expect(result.stdout).toBe('');
    }

    // An unknown type in the shorthand is caught here, naming the flag and the types there are…
    const colour = await agent.lfk(['forms', 'create', '--name', 'Bad type', '--field', 'name:text', '--field', 'x:colour']);
    expect(colour.code).toBe(2);
    expect(errorLine(colour.stderr)).toBe('error: invalid_field: --field "x:colour": "colour" is not a field type.');
    expect(colour.stderr).toContain('The types are text, textarea, email,');
    // …and one in a --schema file by the server, field by field.
    const badSchema = join(agent.dir, 'bad-type.json');
    await writeFile(
      badSchema,
      JSON.stringify([
        { name: 'name', type: 'text' },
        { name: 'x', type: 'colour' },
      ]),
    );
    const serverSide = await agent.lfk(['forms', 'create', '--name', 'Bad type', '--schema', badSchema]);
    expect(serverSide.code).toBe(1);
    expect(errorLine(serverSide.stderr)).toMatch(/^error: invalid_request: /);
    expect(detailLines(serverSide.stderr)).toEqual([expect.stringMatching(/^ {2}schema\.1\.type: \S/)]);

    const notJson = join(agent.dir, 'not-json.txt');
    await writeFile(notJson, 'email: email\n');
    const badFile = await agent.lfk(['forms', 'create', '--name', 'Bad file', '--schema', notJson]);
    expect(badFile.code).toBe(2);
    expect(errorLine(badFile.stderr)).toMatch(/^error: invalid_json: --schema: /);

    const both = await agent.lfk(['forms', 'create', '--name', 'Both', '--field', 'email:email', '--schema', notJson]);
    expect(both.code).toBe(2);
    expect(errorLine(both.stderr)).toMatch(/^error: conflicting_flags: /);

    for (const result of [colour, badFile, both]) expect(result.stderr).not.toMatch(/\n\s+at /); // no stack traces
    expect(await server.sql('select count(*)::int as n from forms')).toEqual(before);
  });

  it('makes one form for a repeated --idempotency-key, and two without it', async () => {
    const args = ['forms', 'create', '--name', 'Idempotent', '--field', 'email:email:required', '--json'];
    const first = await agent.lfk([...args, '--idempotency-key', 'agent-run-42']);
    const second = await agent.lfk([...args, '--idempotency-key', 'agent-run-42']);
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(second.json.id).toBe(first.json.id);
    expect(await server.sql('select id from forms where name = ?', ['Idempotent'])).toEqual([{ id: first.json.id }]);

    const plain = ['forms', 'create', '--name', 'Not idempotent', '--field', 'email:email:required', '--json'];
    const third = await agent.lfk(plain);
    const fourth = await agent.lfk(plain);
    expect(third.code).toBe(0);
    expect(fourth.code).toBe(0);
    expect(fourth.json.id).not.toBe(third.json.id);
    expect(await server.sql('select id from forms where name = ?', ['Not idempotent'])).toHaveLength(2);
  });
});

describe('forms get / update / resend-verification (agent)', () => {
  it('gets a form for people and as the created object', async () => {
    const human = await agent.lfk(['forms', 'get', contactForm.id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^id\\s+${contactForm.id}$`, 'm'));
    expect(human.stdout).toMatch(/^name\s+Contact$/m);
    expect(human.stdout).toMatch(/^submission mode\s+api_key$/m);
    expect(human.stdout).toMatch(/^message\ttextarea\tno\t\t$/m);

    const json = await agent.lfk(['forms', 'get', contactForm.id, '--json']);
    expect(json.code).toBe(0);
    const expected = { ...contactForm };
    delete expected.claim_token;
    expect(json.json).toEqual(expected);
  });

  it('updates name, origins and redirect URL, then clears the redirect URL', async () => {
    const updated = await agent.lfk([
      'forms',
      'update',
      contactForm.id,
      '--name',
      'Contact us',
      '--origin',
      'https://example.com',
      '--origin',
      'https://www.example.com',
      '--redirect-url',
      'https://example.com/thanks',
      '--json',
    ]);
    expect(updated.code).toBe(0);
    expect(updated.json.name).toBe('Contact us');
    expect(updated.json.allowed_origins).toEqual(['https://example.com', 'https://www.example.com']);
    expect(updated.json.redirect_url).toBe('https://example.com/thanks');
    expect(updated.json.schema).toEqual(contactForm.schema);
    let row = await formRow(contactForm.id);
    expect(row.name).toBe('Contact us');
    expect(asJson(row.allowed_origins)).toEqual(['https://example.com', 'https://www.example.com']);
    expect(row.redirect_url).toBe('https://example.com/thanks');

    const cleared = await agent.lfk(['forms', 'update', contactForm.id, '--no-redirect-url', '--json']);
    expect(cleared.code).toBe(0);
    expect(cleared.json.redirect_url).toBeNull();
    expect(cleared.json.name).toBe('Contact us');
    expect(cleared.json.allowed_origins).toEqual(['https://example.com', 'https://www.example.com']);
    row = await formRow(contactForm.id);
    expect(row.redirect_url).toBeNull();

    const nothing = await agent.lfk(['forms', 'update', contactForm.id]);
    expect(nothing.code).toBe(2);
    expect(errorLine(nothing.stderr)).toMatch(/^error: nothing_to_update: /);
  });

  it('sets a notify email (unverified) and rate-limits verification resends', async () => {
    const address = 'team@example.com';
    const updated = await agent.lfk(['forms', 'update', contactForm.id, '--notify-email', address, '--json']);
    expect(updated.code).toBe(0);
    expect(updated.json.notify_email).toBe(address);
    expect(updated.json.notify_email_verified).toBe(false);
    const row = await formRow(contactForm.id);
    expect(typeof row.notify_emails === 'string' ? JSON.parse(row.notify_emails) : row.notify_emails).toEqual([{ email: address, verified: false }]);
    await until('the first email in the log', () => emailLogsTo(address).length === 1);

    // Setting the address just sent a link, so a resend straight away is too soon.
    const tooSoon = await agent.lfk(['forms', 'resend-verification', contactForm.id]);
    expect(tooSoon.code).toBe(5); // rate limited
    expect(errorLine(tooSoon.stderr)).toMatch(/^error: rate_limited: A verification email was sent recently\. Retry in \d+ seconds?\.$/);

    // As if the default interval (60 s) had passed since that email.
    await server.sql('update forms set verification_sent_at = ? where id = ?', [new Date(Date.now() - 120_000).toISOString(), contactForm.id]);
    const resent = await agent.lfk(['forms', 'resend-verification', contactForm.id]);
    expect(resent.code).toBe(0);
    expect(resent.stdout).toBe('Sent a new verification link to t***@example.com.\n');
    expect(resent.stdout).not.toContain(address);
    await until('the second email in the log', () => emailLogsTo(address).length === 2);
    expect(emailLogsTo(address).map((entry) => entry.email.kind)).toEqual(['verification', 'verification']);

    const again = await agent.lfk(['forms', 'resend-verification', contactForm.id, '--json']);
    expect(again.code).toBe(5);
    expect(again.stdout).toBe('');
    // --json: the error is the API's object, on stderr.
    const { error } = JSON.parse(again.stderr);
    expect(error.code).toBe('rate_limited');
    expect(error.message).toMatch(/^A verification email was sent recently\. Retry in \d+ seconds?\.$/);
    expect(error.retry_after).toBeGreaterThanOrEqual(1);
    expect(emailLogsTo(address)).toHaveLength(2);
  });
});

describe('submissions (agent)', () => {
  const storedData = async (id: string) => {
    const rows = await server.sql<{ data: unknown }>('select data from submissions where id = ?', [id]);
    expect(rows).toHaveLength(1);
    return asJson(rows[0]?.data);
  };

  it('submits --data pairs and --data-json from standard input, stored as sent', async () => {
    const pairs = await agent.lfk(['submissions', 'create', contactForm.id, '--data', 'email=ada@example.com', '--data', 'message=Hello there']);
    expect(pairs.code).toBe(0);
    const id = new RegExp(`^Created submission (sub_\\S+) on ${contactForm.id}\\.$`).exec(pairs.stdout.trim())?.[1];
    expect(id).toBeDefined();
    expect(await storedData(id as string)).toEqual({ email: 'ada@example.com', message: 'Hello there' });
    submissionIds.push(id as string);

    const values = { email: 'bob@example.com', age: 36, subscribe: true };
    const typed = await agent.lfk(['submissions', 'create', typedForm.id, '--data-json', '-', '--json'], { input: JSON.stringify(values) });
    expect(typed.code).toBe(0);
    expect(typed.json.form_id).toBe(typedForm.id);
    expect(await storedData(typed.json.id)).toEqual(values);
    const [row] = await server.sql<any>('select source, api_key_id from submissions where id = ?', [typed.json.id]);
    expect(row).toEqual({ source: 'api_key', api_key_id: agentKey.id });
  });

  it('reports each bad field of a failed validation', async () => {
    const before = await server.sql('select count(*)::int as n from submissions');
    const result = await agent.lfk(['submissions', 'create', contactForm.id, '--data', 'email=not-an-email', '--data', 'plan=enterprise']);
    expect(result.code).toBe(1);
    expect(errorLine(result.stderr)).toMatch(/^error: validation_failed: /);
    expect(detailLines(result.stderr).sort()).toEqual([expect.stringMatching(/^ {2}email: \S/), expect.stringMatching(/^ {2}plan: \S/)]);
    expect(await server.sql('select count(*)::int as n from submissions')).toEqual(before);
  });

  it('stores one submission for a repeated --idempotency-key', async () => {
    const args = ['submissions', 'create', contactForm.id, '--data', 'email=cy@example.com', '--idempotency-key', 'sub-once', '--json'];
    const first = await agent.lfk(args);
    const second = await agent.lfk(args);
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(second.json.id).toBe(first.json.id);
    const rows = await server.sql<any>('select id, data from submissions where form_id = ?', [contactForm.id]);
    expect(rows.filter((r) => asJson(r.data).email === 'cy@example.com').map((r) => r.id)).toEqual([first.json.id]);
    submissionIds.push(first.json.id);
  });

  it('needs a key on an api_key form: no credentials, or only a session, is api_key_required', async () => {
    const before = await server.sql('select count(*)::int as n from submissions');
    const anonymous = await stranger.lfk(['submissions', 'create', contactForm.id, '--data', 'email=eve@example.com']);
    expect(anonymous.code).toBe(4); // credentials missing
    expect(errorLine(anonymous.stderr)).toMatch(/^error: api_key_required: /);
    // The owner is signed in, but submissions never send the session.
    const session = await owner.lfk(['submissions', 'create', contactForm.id, '--data', 'email=eve@example.com']);
    expect(session.code).toBe(4);
    expect(errorLine(session.stderr)).toMatch(/^error: api_key_required: /);
    expect(await server.sql('select count(*)::int as n from submissions')).toEqual(before);
  });

  it('a browser form too: the CLI sends as a server, so without a key it says a key is needed (not that its origin is refused)', async () => {
    const browserForm = await owner.lfk(['forms', 'create', '--name', 'On a page', '--origin', 'https://example.com', '--field', 'email:email', '--json']);
    expect(browserForm.code, browserForm.stderr).toBe(0);
    const session = await owner.lfk(['submissions', 'create', browserForm.json.id, '--data', 'email=eve@example.com']);
    expect(session.code).toBe(4);
    expect(errorLine(session.stderr)).toBe('error: api_key_required: This command sends as your server does, with an API key; a signed-in session is not one.');
    expect(session.stderr).toContain("an owner makes one with 'lfk keys create'");
    expect(await server.sql('select id from submissions where form_id = ?', [browserForm.json.id])).toEqual([]);
  });
});

describe('reading (owner session vs agent key)', () => {
  it('lets the owner list submissions, and tells the agent a key cannot', async () => {
    const listed = await owner.lfk(['submissions', 'list', contactForm.id, '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json.data.map((s: any) => s.id).sort()).toEqual([...submissionIds].sort());
    const ada = listed.json.data.find((s: any) => s.id === submissionIds[0]);
    expect(ada.data).toEqual({ email: 'ada@example.com', message: 'Hello there' });

    const denied = await agent.lfk(['submissions', 'list', contactForm.id]);
    expect(denied.code).toBe(4);
    // Not "run lfk login": the agent has a key, and no key can do this.
    expect(errorLine(denied.stderr)).toBe('error: session_required: This needs a signed-in person: an API key cannot do it, and LFK_API_KEY is set.');
    expect(denied.stderr).toContain('Listing forms, reading submissions and managing keys');
    expect(denied.stdout).toBe('');
    const forms = await agent.lfk(['forms', 'list', '--json']);
    expect(forms.code).toBe(4);
    expect(JSON.parse(forms.stderr).error.code).toBe('session_required');
  });

  it('lists the workspace forms for the owner', async () => {
    const rows = await server.sql<{ id: string }>('select id from forms where workspace_id = ?', [workspaceId]);
    const listed = await owner.lfk(['forms', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json.data.map((f: any) => f.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(listed.json.data.map((f: any) => f.id)).toContain(contactForm.id);

    const human = await owner.lfk(['forms', 'list']);
    expect(human.code).toBe(0);
    // Through a pipe: the column names, then one tab-separated line per form.
    expect(human.stdout.split('\n')[0]).toBe('ID\tNAME\tMODE\tFIELDS\tSUBMISSIONS\tLAST\tDRAFTS\tNOTIFY\tCREATED');
    expect((await owner.lfk(['forms', 'list', '--no-headers'])).stdout).not.toContain('NOTIFY');
    // ID, name, mode, fields, submissions, last submission, drafts (none kept: blank), notify, created.
    expect(human.stdout).toMatch(
      new RegExp(`^${contactForm.id}\\tContact us\\tapi_key\\t3\\t2\\t\\d{4}-[^\\t]+\\t\\tteam@example\\.com \\(unverified\\)\\t\\d{4}-`, 'm'),
    );
    expect(human.stdout).toMatch(new RegExp(`^${typedForm.id}\\tTyped\\tapi_key\\t3\\t1\\t`, 'm'));
  });
});

describe('a revoked key', () => {
  it('fails with invalid_api_key, and --api-key beats LFK_API_KEY', async () => {
    const second = await owner.lfk(['keys', 'create', '--name', 'agent-2', '--json']);
    expect(second.code).toBe(0);
    printedKeys.push(second.json.key);

    const revoked = await owner.lfk(['keys', 'revoke', agentKey.id, '--yes']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`Revoked ${agentKey.id}.\n`);
    const [row] = await server.sql<any>('select revoked_at from api_keys where id = ?', [agentKey.id]);
    expect(row.revoked_at).not.toBeNull();

    const refused = await agent.lfk(['forms', 'get', contactForm.id]);
    expect(refused.code).toBe(4);
    expect(refused.stderr.startsWith('error: invalid_api_key:')).toBe(true);
    expect(refused.stdout).toBe('');

    // LFK_API_KEY still holds the revoked key; the flag wins.
    const withFlag = await agent.lfk(['forms', 'get', contactForm.id, '--api-key', second.json.key, '--json']);
    expect(withFlag.code).toBe(0);
    expect(withFlag.json.id).toBe(contactForm.id);
    expect(withFlag.json.name).toBe('Contact us');
  });
});

describe('an unclaimed form', () => {
  it('is made without credentials and claimed once by the owner', async () => {
    const created = await stranger.lfk(['forms', 'create', '--name', 'X', '--field', 'email:email', '--notify-email', 'someone@example.com', '--json']);
    expect(created.code).toBe(0);
    expect(created.json.state).toBe('unclaimed');
    expect(created.json.workspace_id).toBeNull();
    expect(created.json.claim_token).toMatch(/^lfc_/);
    expect(created.json.schema).toEqual([{ name: 'email', type: 'email', required: false }]);
    const id = created.json.id;
    let row = await formRow(id);
    expect(row.state).toBe('unclaimed');
    expect(row.workspace_id).toBeNull();

    const claimed = await owner.lfk(['forms', 'claim', id, '--claim-token', created.json.claim_token, '--json']);
    expect(claimed.code).toBe(0);
    expect(claimed.json.id).toBe(id);
    expect(claimed.json.state).toBe('claimed');
    expect(claimed.json.workspace_id).toBe(workspaceId);
    row = await formRow(id);
    expect(row.state).toBe('claimed');
    expect(row.workspace_id).toBe(workspaceId);

    const again = await owner.lfk(['forms', 'claim', id, '--claim-token', created.json.claim_token]);
    expect(again.code).toBe(1);
    expect(errorLine(again.stderr)).toMatch(/^error: form_already_claimed: /);
  });
});

describe('secrets on disk', () => {
  it('never writes an API key into a file under the agent or owner home', async () => {
    expect(printedKeys).toHaveLength(2);
    for (const home of [agent, owner]) {
      for (const file of await filesUnder(home.dir)) {
        const text = await readFile(file, 'utf8');
        for (const key of printedKeys) expect(text, file).not.toContain(key);
      }
    }
    // The owner's config holds the session, never a key.
    const config = JSON.parse(await readFile(owner.configPath, 'utf8'));
    expect(config.servers[server.baseUrl].session_token).toEqual(expect.any(String));
  });
});
