/**
 * Issue 39: the triggers that tell every process a form changed (`FORM_CHANGED_CHANNEL`, with the
 * form's id), and hearing them on both engines. On PGlite a notification has reached its handler by
 * the time the statement or commit that sent it has resolved, so a process that changed a form never
 * reads its old copy afterwards; on PostgreSQL it comes over the listener's connection, in commit order.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, FORM_CHANGED_CHANNEL, Form, newId, openDatabase, type Subscription } from '../src/index.ts';
import { adminQuery, databaseUrl, RUN_DATABASE_PREFIX } from '../src/testing/postgres-databases.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** What a submission reads of a form (`FormRepository.readForSubmission`) but `refused_origins`: each of them notifies. */
const READ_BY_SUBMISSIONS = [
  'id',
  'workspace_id',
  'project_id',
  'name',
  'state',
  'schema',
  'submission_mode',
  'allowed_origins',
  'notify_emails',
  'notify_fallback',
  'redirect_url',
  'honeypot',
  'captcha_provider',
  'captcha_site_key',
  'captcha_secret_sealed',
  'closed',
  'closes_at',
  'max_submissions',
  'closed_message',
  'retention_days',
  'created_at',
  'updated_at',
  'unknown_fields',
  'auto_reply',
  'error_redirect_url',
];

let db: Database;
let subscription: Subscription;
const heard: string[] = [];
let fences = 0;
// On PostgreSQL a database of this file's own, so no other test hears (or sends) its notifications.
const ownDatabase = `${RUN_DATABASE_PREFIX}form_changes_${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  if (TEST_DATABASE_URL) await adminQuery(TEST_DATABASE_URL, `create database ${ownDatabase}`);
  db = await openDatabase(TEST_DATABASE_URL ? { databaseUrl: databaseUrl(TEST_DATABASE_URL, ownDatabase) } : { dataDir: 'memory://' });
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  subscription = db.listen(FORM_CHANGED_CHANNEL, {
    onNotification: (formId) => heard.push(formId),
    onListening: () => listening(),
    onLost: () => {},
  });
  await ready;
});

afterAll(async () => {
  await subscription?.close();
  await db?.close();
  if (TEST_DATABASE_URL) await adminQuery(TEST_DATABASE_URL, `drop database if exists ${ownDatabase} with (force)`);
});

const sql = (query: string, params: unknown[] = []) => db.fork().execute(query, params);

/** Waits (a limit, not a verdict) for `done`. */
async function until(what: string, done: () => boolean, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The form ids `change` notified, sorted, without repeats. A notification of our own sent after
 * it marks where its notifications end (PostgreSQL delivers them in commit order), so "none" is
 * known without waiting for nothing. On PGlite, every one of them had already been handled when
 * `change` resolved.
 */
async function notifiedBy(change: () => Promise<unknown>): Promise<string[]> {
  const start = heard.length;
  await change();
  const atOnce = heard.slice(start);
  const fence = `fence-${++fences}`;
  await sql('select pg_notify(?, ?)', [FORM_CHANGED_CHANNEL, fence]);
  await until(`the ${fence} notification`, () => heard.includes(fence));
  const all = heard.slice(start, heard.indexOf(fence));
  if (db.engine === 'pglite') expect(atOnce).toEqual(all);
  return [...new Set(all)].sort();
}

async function workspace(): Promise<string> {
  const id = newId('ws');
  await sql("insert into workspaces (id, name, created_at, updated_at) values (?, 'W', now(), now())", [id]);
  return id;
}

async function form(workspaceId: string | null = null): Promise<string> {
  const id = newId('form');
  await sql(
    `insert into forms (id, workspace_id, name, state, schema, allowed_origins, notify_emails, created_at, updated_at)
     values (?, ?, 'F', ?, '[]', '["https://site.example"]', '[]', now(), now())`,
    [id, workspaceId, workspaceId ? 'claimed' : 'unclaimed'],
  );
  return id;
}

async function webhook(formId: string): Promise<string> {
  const id = newId('wh');
  await sql(
    `insert into webhook_endpoints (id, created_at, updated_at, form_id, url, events, secret_sealed, secret_created_at)
     values (?, now(), now(), ?, 'https://receiver.example/hook', '["submission.created"]', 'sealed', now())`,
    [id, formId],
  );
  return id;
}

describe(`a form's changes are notified (${TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('a new form notifies nothing: no process can hold a copy of it yet', async () => {
    expect(await notifiedBy(() => form())).toEqual([]);
  });

  it.each(READ_BY_SUBMISSIONS)('an update of forms.%s notifies the form', async (column) => {
    const formId = await form();
    const other = await form();
    expect(await notifiedBy(() => sql(`update forms set "${column}" = "${column}" where id = ?`, [formId]))).toEqual([formId]);
    expect(await notifiedBy(() => sql(`update forms set "${column}" = "${column}" where id in (?, ?)`, [formId, other]))).toEqual([formId, other].sort());
  });

  it('closing a form by SQL, as a script would, notifies it', async () => {
    const formId = await form();
    expect(await notifiedBy(() => sql('update forms set closed = true where id = ?', [formId]))).toEqual([formId]);
  });

  it(
    'a refused origin noted, a skipped auto-reply counted, a verification sent or a claim token set notifies nothing: ' + 'submissions read none of them',
    async () => {
      const formId = await form();
      expect(await notifiedBy(() => db.fork().getRepository(Form).noteRefusedOrigin(formId, 'https://elsewhere.example', new Date(), 10))).toEqual([]);
      expect(await notifiedBy(() => db.fork().getRepository(Form).countSkippedAutoReply(formId))).toEqual([]);
      expect(await notifiedBy(() => sql('update forms set verification_sent_at = now(), claim_token_hash = ? where id = ?', [newId('form'), formId]))).toEqual(
        [],
      );
    },
  );

  it('deleting a form notifies it, and deleting a workspace notifies each of its forms', async () => {
    const alone = await form();
    expect(await notifiedBy(() => sql('delete from forms where id = ?', [alone]))).toEqual([alone]);
    const ws = await workspace();
    const forms = [await form(ws), await form(ws)];
    await webhook(forms[0]!);
    expect(await notifiedBy(() => sql('delete from workspaces where id = ?', [ws]))).toEqual([...forms].sort());
  });

  it('a webhook endpoint added, enabled or disabled, moved or deleted notifies its forms; its other columns do not', async () => {
    const formId = await form();
    const other = await form();
    let endpointId = '';
    expect(await notifiedBy(async () => (endpointId = await webhook(formId)))).toEqual([formId]);
    expect(await notifiedBy(() => sql('update webhook_endpoints set enabled = false where id = ?', [endpointId]))).toEqual([formId]);
    expect(await notifiedBy(() => sql('update webhook_endpoints set enabled = true where id = ?', [endpointId]))).toEqual([formId]);
    expect(
      await notifiedBy(() =>
        sql(
          "update webhook_endpoints set url = 'https://other.example', events = '[]', failing_since = now(), description = 'd', " +
            'updated_at = now() where id = ?',
          [endpointId],
        ),
      ),
    ).toEqual([]);
    expect(await notifiedBy(() => sql('update webhook_endpoints set form_id = ? where id = ?', [other, endpointId]))).toEqual([formId, other].sort());
    expect(await notifiedBy(() => sql('delete from webhook_endpoints where id = ?', [endpointId]))).toEqual([other]);
  });

  it('a change through the ORM notifies when its transaction commits, and a rolled back one never', async () => {
    const formId = await form();
    expect(
      await notifiedBy(() =>
        db.fork().transactional(async (em) => {
          const found = await em.findOneOrFail(Form, { id: formId });
          found.closed = true;
        }),
      ),
    ).toEqual([formId]);
    expect(
      await notifiedBy(() =>
        db
          .fork()
          .transactional(async (em) => {
            await em.execute('update forms set closed = false where id = ?', [formId]);
            throw new Error('changed my mind');
          })
          .catch(() => {}),
      ),
    ).toEqual([]);
  });
});

describe.runIf(!TEST_DATABASE_URL)('on PGlite', () => {
  it('every handler listening hears the change before the statement resolves, and a closed one no more', async () => {
    const second: string[] = [];
    let listening!: () => void;
    const ready = new Promise<void>((resolve) => (listening = resolve));
    const other = db.listen(FORM_CHANGED_CHANNEL, { onNotification: (id) => second.push(id), onListening: () => listening(), onLost: () => {} });
    await ready;
    const formId = await form();
    await sql('update forms set closed = true where id = ?', [formId]);
    expect(second).toEqual([formId]);
    await other.close();
    await sql('update forms set closed = false where id = ?', [formId]);
    expect(second).toEqual([formId]);
    // The first listener still hears: closing one subscription does not unlisten the channel.
    expect(await notifiedBy(() => sql('update forms set closed = true where id = ?', [formId]))).toEqual([formId]);
  });
});
