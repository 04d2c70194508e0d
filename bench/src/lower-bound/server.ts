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
 */
import { createHash } from 'node:crypto';
import { validateSubmission } from '@lfk/api';
import { type IForm, newId, type StoredField } from '@lfk/db';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
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
  const hash = createHash('sha256').update(match[1]!).digest('hex');
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

const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.on('SIGTERM', () => {
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
process.on('message', (message: ToServer) => answerProfiling(message, (answer) => process.send!(answer)));
process.send!({ type: 'ready', url } satisfies FromServer);
