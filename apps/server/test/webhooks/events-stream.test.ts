/**
 * Issue 40: the events feed `lfk listen` follows is read in commit order from an opaque cursor, so
 * a submission whose transaction commits after a later one's, or one released from spam, is never
 * behind a reader's cursor; and a reader may hold a request open until an event arrives.
 */
import { createContactForm, ENGINE, ORIGIN, submit, useTestServer, VALID } from '@lfk/server/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

const t = useTestServer();

async function form() {
  const owner = await t.signup();
  const created = await createContactForm(t, owner, { spam: { honeypot: '_gotcha' } });
  const feed = (after?: string, extra = '') =>
    t.request('GET', `/v1/forms/${created.id}/events${after ? `?after=${after}${extra}` : ''}`, { token: owner.token });
  const start = (await feed()).json.cursor as string;
  return { owner, formId: created.id, feed, start };
}

const eventIds = (res: { json: { data: { id: string }[] } }) => res.json.data.map((e) => e.id);
const eventOf = (submissionId: string) => `msg_${submissionId.slice('sub_'.length)}`;

type Feed = (after?: string, extra?: string) => ReturnType<typeof t.request>;

/**
 * The feed read from `after` until `count` events have come, each read held open until one does:
 * on PostgreSQL another test's transaction, still running, holds back what committed after it began.
 */
async function collect(feed: Feed, after: string, count: number) {
  const events: { id: string; payload: { data: { submission: { values: Record<string, unknown> } } } }[] = [];
  let cursor = after;
  while (events.length < count) {
    const res = await feed(cursor, '&wait=20');
    expect(res.status, res.body).toBe(200);
    events.push(...res.json.data);
    cursor = res.json.cursor;
  }
  return { ids: events.map((e) => e.id), events, cursor };
}

describe('the events feed', () => {
  it('gives a submission released from spam after the cursor, though it arrived before what the cursor has passed', async () => {
    const { owner, formId, feed, start } = await form();
    const spam = await submit(t, formId, { ...VALID, _gotcha: 'bot' }, { origin: ORIGIN });
    const real = await submit(t, formId, VALID, { origin: ORIGIN });
    const first = await collect(feed, start, 1);
    expect(first.ids).toEqual([eventOf(real.json.id)]);

    const released = await t.request('POST', `/v1/forms/${formId}/submissions/${spam.json.id}/not-spam`, { token: owner.token });
    expect(released.status).toBe(200);
    const next = await collect(feed, first.cursor, 1);
    expect(next.ids).toEqual([eventOf(spam.json.id)]);
    expect(next.events[0]!.payload.data.submission.values).toEqual({ name: 'Ada', email: 'ada@example.com' });
  });

  it('holds an empty page open (wait) until an event arrives', async () => {
    const { formId, feed, start } = await form();
    const waiting = feed(start, '&wait=20');
    const sent = await submit(t, formId, VALID, { origin: ORIGIN });
    expect(eventIds(await waiting)).toEqual([eventOf(sent.json.id)]);
  });

  it('refuses a wait over 20 seconds', async () => {
    const { feed, start } = await form();
    const res = await feed(start, '&wait=21');
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe('wait');
  });

  // Two transactions at once need two connections: the embedded database has one, so commits there come in order.
  it.skipIf(ENGINE === 'pglite')('does not pass a submission still being written: it comes first once committed', async () => {
    const { formId, feed, start } = await form();
    const other = new pg.Client({ connectionString: t.server.config.databaseUrl! });
    await other.connect();
    try {
      // A submission whose transaction began first, and is still open while a later one commits.
      const early = `sub_${'0'.repeat(20)}early0`;
      await other.query('begin');
      await other.query(
        'insert into submissions (id, form_id, data, source, status, created_at) values ($1, $2, \'{"name":"Early","email":"e@example.com"}\', ' +
          "'api_key', 'ok', now())",
        [early, formId],
      );
      const late = await submit(t, formId, VALID, { origin: ORIGIN });
      // The later one has committed, but it is not given while an older transaction may still add one before it.
      const meanwhile = await feed(start);
      expect(eventIds(meanwhile)).toEqual([]);
      expect(meanwhile.json.cursor).toBe(start);

      await other.query('commit');
      const after = await collect(feed, start, 2);
      expect(after.ids).toEqual([eventOf(early), eventOf(late.json.id)]);
    } finally {
      await other.end();
    }
  });
});
