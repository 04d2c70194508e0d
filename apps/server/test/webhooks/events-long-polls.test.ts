/**
 * Issue 50, item 15: held long polls of the events feed (`lfk listen`) are limited per person and
 * per workspace, like exports (429 rate_limited with Retry-After past either), give their place back
 * however they end (news, the wait over, the client gone, the server stopping), and cost no database
 * statement of their own while they wait: one look a turn serves them all.
 */
import { connect } from 'node:net';
import {
  createContactForm,
  expectError,
  ORIGIN,
  rawExchange,
  startTestServer,
  submit,
  type TestServer,
  until,
  useTestServer,
  VALID,
} from '@lfk/server/testing';
import { beforeAll, describe, expect, it } from 'vitest';

const t = useTestServer({ LFK_LONG_POLLS_PER_PERSON: '2', LFK_LONG_POLLS_PER_WORKSPACE: '3' });
let port: number;
beforeAll(async () => {
  port = Number(new URL(await t.server.listen()).port);
});

const held = (s: TestServer = t) => s.server.services.longPolls.held;

/** A form of `owner`'s workspace, and its feed read as `token` from a cursor (`wait` seconds). */
async function feedOf(s: TestServer, owner: { token: string; workspaceId: string }) {
  const form = await createContactForm(s, owner);
  const start = (await s.request('GET', `/v1/forms/${form.id}/events`, { token: owner.token })).json.cursor as string;
  const poll = (token: string, wait = 20) => s.request('GET', `/v1/forms/${form.id}/events?after=${start}&wait=${wait}`, { token });
  return { id: form.id, start, poll };
}

describe('held polls of the events feed, limited like exports', () => {
  it('a person past their limit is 429 rate_limited with Retry-After; once one of theirs ends, a new one is held', async () => {
    const owner = await t.signup();
    const [a, b] = [await feedOf(t, owner), await feedOf(t, owner)];
    const first = a.poll(owner.token);
    const second = b.poll(owner.token);
    await until('two polls held', () => held() === 2);

    const third = await a.poll(owner.token);
    expectError(third, 429, 'rate_limited');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    // A read that needs no holding is not refused: a page with events answers at once.
    const sent = await submit(t, a.id, VALID, { origin: ORIGIN });
    const answered = await first;
    expect(answered.status, answered.body).toBe(200);
    expect(answered.json.data.map((e: { id: string }) => e.id)).toEqual([`msg_${sent.json.id.slice(4)}`]);

    // One ended: a new one is held (it answers the event that ends it, not a 429).
    await until('one place given back', () => held() === 1);
    const again = b.poll(owner.token);
    await until('two polls held again', () => held() === 2);
    await submit(t, b.id, VALID, { origin: ORIGIN });
    expect((await second).status).toBe(200);
    expect((await again).status).toBe(200);
    await until('every place given back', () => held() === 0);
  });

  it("a workspace past its limit is refused to its members too; another workspace's people are not", async () => {
    const { owner, member, outsider } = await t.signupTeam();
    const [a, b] = [await feedOf(t, owner), await feedOf(t, owner)];
    const polls = [a.poll(owner.token), b.poll(owner.token), a.poll(member.token)];
    await until('three polls held in one workspace', () => held() === 3);
    const refused = await b.poll(member.token);
    expectError(refused, 429, 'rate_limited');
    expect(refused.json.error.message).toMatch(/workspace/);

    const elsewhere = await feedOf(t, outsider);
    const theirs = elsewhere.poll(outsider.token);
    await until("the other workspace's poll held", () => held() === 4);
    await Promise.all([
      submit(t, a.id, VALID, { origin: ORIGIN }),
      submit(t, b.id, VALID, { origin: ORIGIN }),
      submit(t, elsewhere.id, VALID, { origin: ORIGIN }),
    ]);
    for (const res of [...(await Promise.all(polls)), await theirs]) expect(res.status, res.body).toBe(200);
    await until('every place given back', () => held() === 0);
  });

  it('a wait that ends with nothing gives its place back', async () => {
    const owner = await t.signup();
    const a = await feedOf(t, owner);
    const res = await a.poll(owner.token, 1);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([]);
    expect(held()).toBe(0);
  });

  it('a client that goes away gives its place back; one that half-closes gets its page at once', async () => {
    const owner = await t.signup();
    const a = await feedOf(t, owner);
    const request = `GET /v1/forms/${a.id}/events?after=${a.start}&wait=20 HTTP/1.1\r\nHost: lfk.test\r\nAuthorization: Bearer ${owner.token}\r\n\r\n`;

    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(request);
    await until('the poll held', () => held() === 1);
    socket.destroy();
    await until('its place given back', () => held() === 0);
    // Both places are free again: two new polls are held, none refused.
    const polls = [a.poll(owner.token), a.poll(owner.token)];
    await until('two polls held', () => held() === 2);
    await submit(t, a.id, VALID, { origin: ORIGIN });
    const answers = await Promise.all(polls);
    for (const res of answers) expect(res.status).toBe(200);

    // From the newest cursor (nothing after it), the request sent and the client's side closed.
    const halfClosed = await rawExchange(
      port,
      (s) => {
        s.write(request.replace(a.start, answers[0]!.json.cursor));
        s.end();
      },
      10_000,
    );
    expect(halfClosed.status).toBe(200);
    expect(halfClosed.json.data).toEqual([]);
    await until('every place given back', () => held() === 0);
  });
});

describe('held polls when the server stops', () => {
  it('answer at once with what they have, and give their places back', async () => {
    const s = await startTestServer({ LFK_LONG_POLLS_PER_PERSON: '2' });
    let closed = false;
    try {
      const owner = await s.signup();
      const a = await feedOf(s, owner);
      const polls = [a.poll(owner.token), a.poll(owner.token)];
      await until('two polls held', () => held(s) === 2);
      const stopping = s.close();
      for (const res of await Promise.all(polls)) {
        expect(res.status).toBe(200);
        expect(res.json.data).toEqual([]);
      }
      await stopping;
      closed = true;
      expect(held(s)).toBe(0);
    } finally {
      if (!closed) await s.close();
    }
  });
});

describe('held polls cost no statement of their own while they wait', () => {
  const many = useTestServer({ LFK_LONG_POLLS_PER_PERSON: '20' });

  it('eight polls on two forms: one look a turn for all of them, no page read until there is news', async () => {
    const owner = await many.signup();
    const [a, b] = [await feedOf(many, owner), await feedOf(many, owner)];
    const statements = recordStatements(many);
    try {
      const polls = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).poll(owner.token));
      await until('eight polls held', () => held(many) === 8);
      statements.clear();
      await until('three looks for news', () => statements.matching('stream_seq').length >= 3);
      const feedReads = statements.matching('stream_seq');
      // Every statement about the stream is the shared look (both forms at once), never a poll's page.
      expect(feedReads.every((sql) => sql.includes('cross join lateral'))).toBe(true);
      await Promise.all([submit(many, a.id, VALID, { origin: ORIGIN }), submit(many, b.id, VALID, { origin: ORIGIN })]);
      for (const res of await Promise.all(polls)) expect(res.json.data).toHaveLength(1);
    } finally {
      statements.stop();
    }
  });
});

/** Every statement the server sends through MikroORM from now on, whatever sends it. */
function recordStatements(s: TestServer) {
  const connection = s.server.db.orm.em.getConnection() as unknown as { executeQuery: (sql: string, ...rest: unknown[]) => Promise<unknown> };
  const original = connection.executeQuery;
  const statements: string[] = [];
  connection.executeQuery = function (this: unknown, sql: string, ...rest: unknown[]) {
    statements.push(String(sql));
    return original.call(this, sql, ...rest);
  };
  return {
    matching: (fragment: string) => statements.filter((sql) => sql.includes(fragment)),
    clear: () => void statements.splice(0),
    stop: () => {
      connection.executeQuery = original;
    },
  };
}
