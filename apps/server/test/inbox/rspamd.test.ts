/**
 * rspamd beside the content filter (issue 54): with `LFK_RSPAMD_URL`, Debian's rspamd (started by
 * the test world) is asked about every submission and its verdict folded in; told of every mark;
 * unreachable, it is left out: lfk's own filter decides, a line says so once, never a 5xx.
 */
import { describeWithRspamd, GTUBE, type Rspamd, startRspamd, startTcpHop, type TcpHop } from '@lfk/testing';
import { type Account, createContactForm, startTestServer, submit, type TestServer, until } from '@lfk/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

describeWithRspamd('rspamd', () => {
  let rspamd: Rspamd;
  let hop: TcpHop;
  let t: TestServer;
  let owner: Account;
  let key: string;

  beforeAll(async () => {
    rspamd = await startRspamd();
    // Reached through a hop the test can take down, as an outage would.
    hop = await startTcpHop(rspamd.url);
    t = await startTestServer({ LFK_RSPAMD_URL: hop.url.replace(/\/$/, ''), LFK_RSPAMD_TIMEOUT: '5' });
    ({ owner, key } = await t.signupWithKey());
  });
  afterAll(async () => {
    await t?.close();
    await hop?.close();
    await rspamd?.close();
  });

  const read = async (formId: string, id: string) => (await t.request('GET', `/v1/forms/${formId}/submissions/${id}`, { token: owner.token })).json;

  it('files what rspamd calls spam as spam, with its reason, though lfk’s own filter lets it through', async () => {
    const form = await createContactForm(t, owner);
    const quiet = { name: 'Ada', email: 'ada@example.org', message: `Hello, a question about Thursday. ${GTUBE}` };
    const sent = await submit(t, form.id, quiet, { token: key });
    expect(sent.status, sent.body).toBe(201);
    const stored = await read(form.id, sent.json.id);
    expect(stored).toMatchObject({ status: 'spam', spam_reason: 'content', spam_score: 1 });
    const reason = stored.spam_reasons.find((r: { code: string }) => r.code === 'rspamd');
    // GTUBE scores nothing of its own in rspamd: it forces the action.
    expect(reason.message).toMatch(/^rspamd scored it \d+\.\d \(spam from \d+\.\d; its action: reject\)/);

    const plain = await submit(t, form.id, { name: 'Ada', email: 'ada@example.org', message: 'Hello, a question about Thursday.' }, { token: key });
    expect(await read(form.id, plain.json.id)).toMatchObject({ status: 'ok', spam_reason: null });
  });

  it("a mark teaches rspamd's Bayes too, spam and not spam", async () => {
    const form = await createContactForm(t, owner);
    // Kept on arrival (a mark on what is spam already changes nothing), and long enough for rspamd's Bayes (11 words).
    const message = 'Hello, we would like to order forty chairs for the new office; could you ship them by Friday and send the invoice?';
    const sent = await submit(t, form.id, { name: 'Ada', email: 'ada@example.org', message }, { token: key });
    expect((await read(form.id, sent.json.id)).status).toBe('ok');
    const before = await rspamd.learned();
    const marked = await t.request('POST', `/v1/forms/${form.id}/submissions/${sent.json.id}/spam`, { token: owner.token });
    expect(marked.status).toBe(200);
    await until('rspamd to learn the spam mark', async () => (await rspamd.learned()) === before + 1);
    const released = await t.request('POST', `/v1/forms/${form.id}/submissions/${sent.json.id}/not-spam`, { token: owner.token });
    expect(released.json.status).toBe('ok');
    await until('rspamd to learn the release as ham', async () => (await rspamd.learned()) === before + 2);
  });

  it('unreachable, rspamd is left out and said once; back, it is asked again', async () => {
    const form = await createContactForm(t, owner);

    await hop.down();
    const before = t.logs.length;
    const during = [];
    for (const message of [`First while it is away. ${GTUBE}`, `Second while it is away. ${GTUBE}`]) {
      const res = await submit(t, form.id, { name: 'Ada', email: 'ada@example.org', message }, { token: key });
      expect(res.status, res.body).toBe(201);
      during.push(res.json.id);
    }
    // lfk's own filter alone: GTUBE means nothing to it.
    for (const id of during) expect((await read(form.id, id)).spam_reasons.map((r: { code: string }) => r.code)).not.toContain('rspamd');
    const lines = () => t.logs.slice(before).map((line) => JSON.parse(line) as { msg: string });
    expect(lines().filter((l) => l.msg.startsWith('rspamd unreachable'))).toHaveLength(1);

    await hop.up();
    const back = await submit(t, form.id, { name: 'Ada', email: 'ada@example.org', message: `Back again. ${GTUBE}` }, { token: key });
    expect(await read(form.id, back.json.id)).toMatchObject({ status: 'spam', spam_reason: 'content' });
    await until('the return to be logged', () => lines().some((l) => /^rspamd answers again after [\d.]+ s$/.test(l.msg)));
  });
});
