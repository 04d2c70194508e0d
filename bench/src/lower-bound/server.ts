/**
 * The lower bound: the jobs of lfk's hot routes written by hand, the least a careful engineer's
 * server does for them: Fastify and `pg`, the sha256 of the bearer, a `Map` from key hash to
 * workspace and one from form id to form row, each kept for the key cache's TTL, and named
 * (prepared) statements. A submission is checked by the same rules as lfk's (mode, key or origin,
 * open, honeypot, and lfk's own `validateSubmission` against the schema), then written in one
 * statement: the row, and the notification's outbox row in the same statement when the form
 * notifies. It runs in its own process on the database lfk uses, so the benchmark can put the two
 * side by side. It is never shipped: it checks no rate limit, records no last use, and would miss
 * a revocation or a form change for up to its TTL.
 *
 * With LOWER_BOUND_FILES_DIR it also takes uploads (scenario 20), at `/uploads/v1/forms/{id}/submissions`:
 * the same checks, `@fastify/multipart` (the parser lfk uses), each file part streamed into a new
 * file of that folder (flushed to disk as it closes, `flush`) while it is hashed (sha256) and its
 * first bytes kept, sniffed by `file-type` against the field's `accept`, renamed to its key, the
 * folder fsynced once for the request, then the submission and its files' rows in one statement.
 */
import { createHash, hash as digest, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import multipart, { type MultipartFile } from '@fastify/multipart';
import { syncFolder, validateSubmission } from '@lfk/api';
import { type IForm, newId, type StoredField } from '@lfk/db';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import pg from 'pg';
import { answerProfiling } from '../profiler.ts';
import type { FromServer, ToServer } from '../protocol.ts';

const TTL_MS = 30_000;
/** Its outbox rows are due never: lfk's sender, on the same database, must not spend its CPU on them. */
const NEVER = new Date('9999-01-01T00:00:00Z');
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const keys = new Map<string, { workspaceId: string; keyId: string; until: number } | { workspaceId: null; until: number }>();
const forms = new Map<string, { row: FormRow; until: number }>();
const app = Fastify({ logger: false });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
  done(null, Object.fromEntries(new URLSearchParams(body as string)));
});

interface FormRow {
  id: string;
  workspace_id: string | null;
  project_id: string | null;
  name: string;
  state: string;
  schema: StoredField[];
  unknown_fields: IForm['unknownFields'];
  submission_mode: string;
  allowed_origins: string[];
  refused_origins: { origin: string; at: string }[] | null;
  notify_emails: { email: string; verified: boolean }[];
  notify_fallback: string[] | null;
  redirect_url: string | null;
  error_redirect_url: string | null;
  honeypot: string | null;
  captcha_provider: string | null;
  captcha_site_key: string | null;
  closed: boolean;
  closes_at: Date | null;
  max_submissions: number | null;
  closed_message: string | null;
  retention_days: number | null;
  auto_reply: { enabled: boolean; email_field: string; subject: string; text: string } | null;
  auto_replies_skipped: number;
  drafts: { enabled: boolean; ttl_days: number } | null;
  created_at: Date;
  updated_at: Date;
}

/** What lfk reads of a form, less its sealed captcha secret, which no answer carries. */
const FORM_COLUMNS =
  'id, workspace_id, project_id, name, state, schema, unknown_fields, submission_mode, allowed_origins, refused_origins, notify_emails, ' +
  'notify_fallback, redirect_url, error_redirect_url, honeypot, captcha_provider, captcha_site_key, closed, closes_at, ' +
  'max_submissions, closed_message, retention_days, auto_reply, auto_replies_skipped, drafts, created_at, updated_at';

/** Where the form's notifications go: its verified addresses, else those kept while new ones are verified. */
function notified(form: FormRow): string[] {
  const verified = form.notify_emails.filter((a) => a.verified).map((a) => a.email);
  return verified.length > 0 ? verified : (form.notify_fallback ?? []);
}

/** The form as lfk answers it (the same fields, so the same bytes to write). */
const wire = (form: FormRow) => ({
  id: form.id,
  workspace_id: form.workspace_id,
  project_id: form.project_id,
  name: form.name,
  state: form.state,
  schema: form.schema,
  unknown_fields: form.unknown_fields,
  submission_mode: form.submission_mode,
  allowed_origins: form.allowed_origins,
  refused_origins: (form.refused_origins ?? []).map((r) => ({ origin: r.origin, last_refused_at: r.at })),
  notify_email: form.notify_emails[0]?.email ?? null,
  notify_email_verified: form.notify_emails[0]?.verified ?? false,
  notify_emails: form.notify_emails.map((a) => a.email),
  verified_notify_emails: form.notify_emails.filter((a) => a.verified).map((a) => a.email),
  notified_addresses: notified(form),
  notifications_to: notified(form)[0] ?? null,
  redirect_url: form.redirect_url,
  error_redirect_url: form.error_redirect_url,
  spam: {
    honeypot: form.honeypot,
    captcha: form.captcha_provider && form.captcha_site_key ? { provider: form.captcha_provider, site_key: form.captcha_site_key } : null,
  },
  closed: form.closed,
  closes_at: form.closes_at?.toISOString() ?? null,
  max_submissions: form.max_submissions,
  closed_message: form.closed_message,
  retention_days: form.retention_days,
  auto_reply: form.auto_reply,
  auto_replies_skipped: form.auto_replies_skipped,
  drafts: { enabled: form.drafts?.enabled ?? false, ttl_days: form.drafts?.ttl_days ?? 7 },
  created_at: form.created_at.toISOString(),
  updated_at: form.updated_at.toISOString(),
});
const READ_KEY = {
  name: 'read-key',
  text: 'SELECT id, workspace_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())',
};
const READ_FORM = { name: 'read-form', text: `SELECT ${FORM_COLUMNS} FROM forms WHERE id = $1` };
const INSERT = 'INSERT INTO submissions (id, form_id, data, source, api_key_id, status, spam_reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)';
const WRITE = { name: 'write', text: `${INSERT} RETURNING created_at` };
const WRITE_NOTIFYING = {
  name: 'write-notifying',
  text:
    `WITH s AS (${INSERT} RETURNING id, created_at), ` +
    'e AS (INSERT INTO outbox_emails (id, kind, "to", subject, body, reply_to, submission_id, status, attempts, next_attempt_at, created_at) ' +
    "SELECT $9, 'submission', $10, $11, $12, $13, s.id, 'pending', 0, $14, s.created_at FROM s) SELECT created_at FROM s",
};

function refuse(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).send({ error: { code, message, request_id: String(reply.request.id) } });
}

/** The key's workspace, from the map or from one SELECT; null for an unknown or revoked key. */
async function keyOf(request: FastifyRequest): Promise<{ workspaceId: string; keyId: string } | null> {
  const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
  if (!match) return null;
  const hash = digest('sha256', match[1]!, 'hex');
  const now = Date.now();
  const cached = keys.get(hash);
  if (cached && cached.until > now) return cached.workspaceId === null ? null : cached;
  const { rows } = await pool.query<{ id: string; workspace_id: string }>({ ...READ_KEY, values: [hash] });
  const found = rows[0] ? { workspaceId: rows[0].workspace_id, keyId: rows[0].id, until: now + TTL_MS } : null;
  keys.set(hash, found ?? { workspaceId: null, until: now + TTL_MS });
  return found;
}

/** The form, read fresh: what a read answers. */
async function readForm(formId: string): Promise<FormRow | undefined> {
  const { rows } = await pool.query<FormRow>({ ...READ_FORM, values: [formId] });
  return rows[0];
}

/** The form, from the map or read: what a submission is checked against. */
async function cachedForm(formId: string): Promise<FormRow | undefined> {
  const now = Date.now();
  const cached = forms.get(formId);
  if (cached && cached.until > now) return cached.row;
  const row = await readForm(formId);
  if (row) forms.set(formId, { row, until: now + TTL_MS });
  return row;
}

app.get<{ Params: { form_id: string } }>('/v1/forms/:form_id', async (request, reply) => {
  const key = await keyOf(request);
  if (!key) return refuse(reply, 401, 'invalid_api_key', 'The API key is invalid or has been revoked.');
  const form = await readForm(request.params.form_id);
  if (form?.state !== 'claimed' || form.workspace_id !== key.workspaceId) return refuse(reply, 404, 'form_not_found', 'No such form.');
  return reply.send(wire(form));
});

/**
 * The submission, and the notification's outbox row when the form notifies (the benchmark's forms
 * notify one address), in one statement; a reply goes to the form's first email field.
 */
async function write(
  form: FormRow,
  values: Record<string, unknown>,
  source: string,
  keyId: string | null,
  spam: boolean,
): Promise<{ id: string; createdAt: Date }> {
  const id = newId('sub');
  const row = [id, form.id, JSON.stringify(values), source, keyId, spam ? 'spam' : 'ok', spam ? 'honeypot' : null, new Date()];
  const to = spam ? undefined : notified(form)[0];
  const replyTo = form.schema.find((field) => field.type === 'email' && typeof values[field.name] === 'string');
  const { rows } = to
    ? await pool.query<{ created_at: Date }>({
        ...WRITE_NOTIFYING,
        values: [...row, newId('eml'), to, `New submission to ${form.name}`, JSON.stringify(values), replyTo ? values[replyTo.name] : null, NEVER],
      })
    : await pool.query<{ created_at: Date }>({ ...WRITE, values: row });
  return { id, createdAt: rows[0]!.created_at };
}

const isOpen = (form: FormRow) => !form.closed && (form.closes_at === null || form.closes_at.getTime() > Date.now());

app.post<{ Params: { form_id: string }; Body: Record<string, unknown> }>('/v1/forms/:form_id/submissions', async (request, reply) => {
  const form = await cachedForm(request.params.form_id);
  if (!form) return refuse(reply, 404, 'form_not_found', 'No such form.');
  let keyId: string | null = null;
  const origin = request.headers.origin;
  if (request.headers.authorization !== undefined) {
    const key = await keyOf(request);
    if (!key) return refuse(reply, 401, 'invalid_api_key', 'The API key is invalid or has been revoked.');
    if (form.workspace_id !== key.workspaceId) return refuse(reply, 403, 'forbidden', 'Not this workspace.');
    keyId = key.keyId;
  } else {
    if (form.submission_mode !== 'browser') return refuse(reply, 401, 'api_key_required', 'This form takes submissions with a key.');
    if (origin === undefined || !form.allowed_origins.includes(origin)) return refuse(reply, 403, 'origin_not_allowed', 'Not from here.');
    reply.headers({ 'access-control-allow-origin': origin, vary: 'Origin' });
  }
  if (!isOpen(form)) return refuse(reply, 403, 'form_closed', 'The form is closed.');
  const { [form.honeypot ?? '']: trap, ...sent } = request.body ?? {};
  const validated = validateSubmission({ schema: form.schema, unknownFields: form.unknown_fields }, form.honeypot ? sent : (request.body ?? {}));
  if (!validated.ok) return refuse(reply, 422, 'validation_failed', 'Some values are not valid.');
  const spam = typeof trap === 'string' && trap.trim() !== '';
  const created = await write(form, validated.values, keyId ? 'api_key' : 'browser', keyId, spam);
  if (keyId || !(request.headers.accept ?? '').includes('text/html')) {
    return reply.code(201).send({ id: created.id, form_id: form.id, created_at: created.createdAt.toISOString() });
  }
  if (form.redirect_url) return reply.code(303).header('location', form.redirect_url).send();
  return reply.code(200).type('text/html; charset=utf-8').send('<!doctype html><title>Thank you</title><p>Your answers were sent.</p>');
});

/** Scenario 20's uploads: where the files go (unset, no upload route), and the most one file may have. */
const FILES_DIR = process.env.LOWER_BOUND_FILES_DIR;
const MAX_FILE_SIZE = 10 * 2 ** 20;
/** The bytes `file-type` is given, as lfk's intake keeps them. */
const SNIFF_BYTES = 4100;
const WRITE_WITH_FILES = {
  name: 'write-with-files',
  text:
    `WITH s AS (${INSERT} RETURNING id, created_at), ` +
    'f AS (INSERT INTO submission_files (id, submission_id, field, position, name, size, content_type, sha256, status, object_key, created_at) ' +
    "SELECT u.id, s.id, u.field, u.position, u.name, u.size, u.content_type, u.sha256, 'stored', u.object_key, s.created_at FROM s, " +
    'unnest($9::varchar[], $10::varchar[], $11::int[], $12::varchar[], $13::int[], $14::varchar[], $15::varchar[], $16::varchar[]) ' +
    'AS u(id, field, position, name, size, content_type, sha256, object_key)) SELECT created_at FROM s',
};

interface Received {
  field: string;
  name: string;
  size: number;
  type: string;
  sha256: string;
  key: string;
}

/** Whether a field's `accept` (exact types and `type/*`; none: any) takes `type`. */
const accepts = (accept: string[] | undefined, type: string) =>
  !accept || accept.length === 0 || accept.some((entry) => entry === type || entry === `${type.split('/')[0]}/*`);

/**
 * One file part into a new file of the folder, flushed to disk as it closes, hashed and its first
 * bytes kept on the way; sniffed; renamed to its key if its field takes its type, else removed (null).
 */
async function receive(part: MultipartFile, field: StoredField): Promise<Received | null> {
  const key = randomBytes(16).toString('hex');
  const partial = join(FILES_DIR!, `.${key}.part`);
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let size = 0;
  const out = createWriteStream(partial, { flags: 'wx', mode: 0o600, flush: true });
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      hash.update(chunk);
      if (size < SNIFF_BYTES) head.push(chunk);
      size += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    const type = (await fileTypeFromBuffer(Buffer.concat(head).subarray(0, SNIFF_BYTES)))?.mime ?? 'application/octet-stream';
    if (!accepts(field.accept, type)) {
      await rm(partial, { force: true });
      return null;
    }
    await rename(partial, join(FILES_DIR!, key));
    return { field: field.name, name: part.filename, size, type, sha256: hash.digest('hex'), key };
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

if (FILES_DIR) {
  await mkdir(FILES_DIR, { recursive: true });
  // A scope of its own, so scenario 8's routes carry none of the multipart plugin's hooks.
  await app.register(
    async (scope) => {
      await scope.register(multipart, { limits: { fileSize: MAX_FILE_SIZE, files: 10, fields: 100, parts: 110 } });
      scope.post<{ Params: { form_id: string } }>('/v1/forms/:form_id/submissions', async (request, reply) => {
        const form = await cachedForm(request.params.form_id);
        if (!form) return refuse(reply, 404, 'form_not_found', 'No such form.');
        const key = await keyOf(request);
        if (!key) return refuse(reply, 401, 'invalid_api_key', 'The API key is invalid or has been revoked.');
        if (form.workspace_id !== key.workspaceId) return refuse(reply, 403, 'forbidden', 'Not this workspace.');
        if (!isOpen(form)) return refuse(reply, 403, 'form_closed', 'The form is closed.');
        // Its outbox row would join the statement, as the JSON route's does; the benchmark's upload form notifies nobody.
        if (notified(form).length > 0) throw new Error('the upload bound takes forms that notify nobody');
        const values: Record<string, unknown> = {};
        const files: Received[] = [];
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            values[part.fieldname] = String(part.value);
            continue;
          }
          const field = form.schema.find((f) => f.name === part.fieldname && f.type === 'file');
          const received = field ? await receive(part, field) : null;
          if (part.file.truncated) return refuse(reply, 413, 'file_too_large', 'The file is too large.');
          if (!received) return refuse(reply, field ? 415 : 422, field ? 'file_type_not_accepted' : 'invalid_submission', 'Not a file this form takes.');
          files.push(received);
        }
        // Every rename of this request written down at once, before the row names them.
        if (files.length > 0) await syncFolder(FILES_DIR);
        const counts = new Map<string, number>();
        for (const file of files) counts.set(file.field, (counts.get(file.field) ?? 0) + 1);
        const validated = validateSubmission({ schema: form.schema, unknownFields: form.unknown_fields }, values, counts);
        if (!validated.ok) return refuse(reply, 422, 'validation_failed', 'Some values are not valid.');
        const ids = files.map(() => newId('file'));
        const data: Record<string, unknown> = { ...validated.values };
        files.forEach((file, i) => {
          data[file.field] = [...((data[file.field] as string[] | undefined) ?? []), ids[i]!];
        });
        const id = newId('sub');
        const { rows } = await pool.query<{ created_at: Date }>({
          ...WRITE_WITH_FILES,
          values: [
            id,
            form.id,
            JSON.stringify(data),
            'api_key',
            key.keyId,
            'ok',
            null,
            new Date(),
            ids,
            files.map((f) => f.field),
            files.map((_, i) => i),
            files.map((f) => f.name),
            files.map((f) => f.size),
            files.map((f) => f.type),
            files.map((f) => f.sha256),
            files.map((f) => f.key),
          ],
        });
        return reply.code(201).send({ id, form_id: form.id, created_at: rows[0]!.created_at.toISOString() });
      });
    },
    { prefix: '/uploads' },
  );
}

const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.on('SIGTERM', () => {
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
process.on('message', (message: ToServer) => answerProfiling(message, (answer) => process.send!(answer)));
process.send!({ type: 'ready', url } satisfies FromServer);
