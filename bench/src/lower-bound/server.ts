/**
 * The lower bound: the jobs of lfk's hot routes written by hand, the least a server can do for
 * them: Fastify and `pg`, the sha256 of the bearer, a `Map` from key hash to workspace kept for
 * the key cache's TTL, one `SELECT` of the form row. It runs in its own process on the database
 * lfk uses, so the benchmark can put the two side by side. It is never shipped: it checks no
 * rate limit, records no last use, validates only that required fields are there, and would
 * miss a revocation for up to its TTL.
 */
import { createHash } from 'node:crypto';
import { newId } from '@lfk/db';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';
import type { FromServer } from '../protocol.ts';

const TTL_MS = 30_000;
/** Its outbox rows are due never: lfk's sender, on the same database, must not spend its CPU on them. */
const NEVER = new Date('9999-01-01T00:00:00Z');
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const keys = new Map<string, { workspaceId: string; keyId: string; until: number } | { workspaceId: null; until: number }>();
const app = Fastify({ logger: false });

interface FormRow {
  id: string;
  workspace_id: string;
  project_id: string | null;
  name: string;
  state: string;
  schema: { name: string; type: string; required: boolean }[];
  submission_mode: string;
  allowed_origins: string[];
  notify_email: string | null;
  notify_email_verified: boolean;
  redirect_url: string | null;
  created_at: Date;
  updated_at: Date;
}

const FORM_COLUMNS =
  'id, workspace_id, project_id, name, state, schema, submission_mode, allowed_origins, notify_email, ' +
  'notify_email_verified, redirect_url, created_at, updated_at';

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
  const { rows } = await pool.query<{ id: string; workspace_id: string }>(
    'SELECT id, workspace_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())',
    [hash],
  );
  const found = rows[0] ? { workspaceId: rows[0].workspace_id, keyId: rows[0].id, until: now + TTL_MS } : null;
  keys.set(hash, found ?? { workspaceId: null, until: now + TTL_MS });
  return found;
}

function formRow(formId: string, workspaceId: string) {
  return pool
    .query<FormRow>(`SELECT ${FORM_COLUMNS} FROM forms WHERE id = $1 AND workspace_id = $2 AND state = 'claimed'`, [formId, workspaceId])
    .then(({ rows }) => rows[0]);
}

app.get<{ Params: { form_id: string } }>('/v1/forms/:form_id', async (request, reply) => {
  const key = await keyOf(request);
  if (!key) return refuse(reply, 401, 'invalid_api_key', 'The API key is invalid or has been revoked.');
  const form = await formRow(request.params.form_id, key.workspaceId);
  if (!form) return refuse(reply, 404, 'form_not_found', 'No such form.');
  return reply.send({ ...form, created_at: form.created_at.toISOString(), updated_at: form.updated_at.toISOString() });
});

/** The submission and the notification's outbox row, in one transaction. */
app.post<{ Params: { form_id: string }; Body: Record<string, unknown> }>(
  '/v1/forms/:form_id/submissions',
  async (request, reply) => {
    const key = await keyOf(request);
    if (!key) return refuse(reply, 401, 'invalid_api_key', 'The API key is invalid or has been revoked.');
    const form = await formRow(request.params.form_id, key.workspaceId);
    if (!form) return refuse(reply, 404, 'form_not_found', 'No such form.');
    const data = request.body;
    if (form.schema.some((field) => field.required && typeof data[field.name] !== 'string')) {
      return refuse(reply, 422, 'validation_failed', 'A required field is missing.');
    }
    const id = newId('sub');
    const createdAt = new Date();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO submissions (id, form_id, data, source, api_key_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        id,
        form.id,
        JSON.stringify(data),
        'api_key',
        key.keyId,
        createdAt,
      ]);
      if (form.notify_email_verified && form.notify_email) {
        await client.query(
          'INSERT INTO outbox_emails (id, kind, "to", subject, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [newId('eml'), 'submission', form.notify_email, `New submission to ${form.name}`, JSON.stringify(data), NEVER, createdAt],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
    return reply.code(201).send({ id, form_id: form.id, created_at: createdAt.toISOString() });
  },
);

const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.on('SIGTERM', () => {
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
process.send!({ type: 'ready', url } satisfies FromServer);
