/**
 * Key cache: in another process on the same PostgreSQL database, a revoked key is refused once PostgreSQL tells it.
 */
import { describe, expect, it } from 'vitest';
import { linkTokenSentTo, TEST_DATABASE_URL, until } from '@lfk/server/testing';
import { expectAccepted, expectRefused, inTransaction, probe, revoke, revokeSilently, twoProcesses } from './fixtures.ts';

describe.runIf(!!TEST_DATABASE_URL)('in another process on the same PostgreSQL database', () => {
  const both = twoProcesses();

  it('serves a key from memory: a revoke nobody is told of goes unseen for the TTL (the control)', async () => {
    const { a, b, url } = both;
    const { key, id } = await a.signupWithKey();
    expectAccepted(await b.probe(key));
    await revokeSilently(url, id);
    expectRefused(await probe(a, key)); // uncached in A: the database says revoked…
    expectAccepted(await b.probe(key)); // …and B, trusting its memory for an hour, has not heard.
  });

  it("refuses a key revoked through the first process's API, told by the database", async () => {
    const { a, b } = both;
    const { owner, key, id } = await a.signupWithKey();
    expectAccepted(await b.probe(key));
    expectAccepted(await b.probe(key));
    await revoke(a, owner, id);
    expectRefused(await probe(a, key));
    await until('the other process to refuse the revoked key', async () => (await b.probe(key)).status === 401);
    expectRefused(await b.probe(key));
  });

  it('refuses a key revoked by raw SQL (the trigger notifies)', async () => {
    const { a, b, url } = both;
    const { owner, key, id } = await a.signupWithKey();
    const { key: bystander } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(key));
    expectAccepted(await b.probe(bystander));
    await inTransaction(url, (client) => client.query('update api_keys set revoked_at = now() where id = $1', [id]));
    await until('the other process to refuse the key revoked by SQL', async () => (await b.probe(key)).status === 401);
    expectRefused(await b.probe(key));
    expectAccepted(await b.probe(bystander));
  });

  it('refuses a key whose row is deleted by raw SQL', async () => {
    const { a, b, url } = both;
    const { key, id } = await a.signupWithKey();
    expectAccepted(await b.probe(key));
    await inTransaction(url, (client) => client.query('delete from api_keys where id = $1', [id]));
    await until('the other process to refuse the deleted key', async () => (await b.probe(key)).status === 401);
    expectRefused(await b.probe(key));
  });

  it("refuses a key taken back by a password reset that confirmed its maker's address, told by the database", async () => {
    const { a, b } = both;
    const { owner, key } = await a.signupWithKey();
    expectAccepted(await b.probe(key));
    // Made by an account that never confirmed its address (as before confirmation was needed for keys).
    await a.sql('update users set email_verified_at = null where id = ?', [owner.userId]);
    expect((await a.request('POST', '/v1/auth/password-resets', { body: { email: owner.email } })).status).toBe(202);
    const link = await linkTokenSentTo(a, owner.email, 'password_reset');
    expect((await a.request('POST', `/v1/auth/password-resets/${link}`, { body: { password: 'the real owner chose this one' } })).status).toBe(204);
    expectRefused(await probe(a, key));
    await until('the other process to refuse the key the reset took back', async () => (await b.probe(key)).status === 401);
    expectRefused(await b.probe(key));
  });

  it("refuses every key of a workspace deleted through the first process's API", async () => {
    const { a, b } = both;
    const { owner, key } = await a.signupWithKey();
    const { key: second } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(key));
    expectAccepted(await b.probe(second));
    const name = (await a.request('GET', '/v1/workspaces', { token: owner.token })).json.data[0].name;
    expect((await a.request('DELETE', `/v1/workspaces/${owner.workspaceId}`, { token: owner.token, body: { confirm: name } })).status).toBe(204);
    expectRefused(await probe(a, key));
    await until(
      'the other process to refuse both keys of the deleted workspace',
      async () => (await b.probe(key)).status === 401 && (await b.probe(second)).status === 401,
    );
  });
});
