/**
 * Key cache: a lost notification connection fails safe.
 */
import { describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, until } from '@lfk/server/testing';
import { expectAccepted, expectRefused, inTransaction, logLines, revoke, revokeSilently, twoProcesses } from './fixtures.ts';

describe.runIf(!!TEST_DATABASE_URL)('a lost notification connection fails safe', () => {
  const both = twoProcesses();

  it('a revocation whose notification is lost with the connection is still refused, and the cache comes back', async () => {
    const { a, b, url } = both;
    const { owner, key, id } = await a.signupWithKey();
    const { key: silentlyRevoked, id: silentId } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(key));
    expectAccepted(await b.probe(key));
    expectAccepted(await b.probe(silentlyRevoked));
    // A revocation B never hears of, before the loss: B holds it as valid.
    await revokeSilently(url, silentId);
    expectAccepted(await b.probe(silentlyRevoked));
    const linesBefore = logLines(b.output()).length;

    // The NOTIFY goes out at commit, after every listener was killed: nobody receives it.
    const terminated = await inTransaction(url, async (client) => {
      await client.query('update api_keys set revoked_at = now() where id = $1', [id]);
      const res = await client.query<{ killed: boolean }>(
        `select pg_terminate_backend(pid) as killed from pg_stat_activity
          where application_name = 'lfk-listener' and datname = current_database()`,
      );
      return res.rows;
    });
    // A's listener and B's.
    expect(terminated.length).toBeGreaterThanOrEqual(2);
    expect(terminated.every((row) => row.killed)).toBe(true);

    await until('the other process to refuse the revoked key', async () => (await b.probe(key)).status === 401);
    expectRefused(await b.probe(key));
    // What B missed before the loss is not served from memory either.
    expectRefused(await b.probe(silentlyRevoked));

    await until('the other process to listen again', () => {
      const after = logLines(b.output()).slice(linesBefore);
      const lost = after.findIndex((l) => l.msg === 'lost the key revocation channel; key cache off until it is back');
      return lost >= 0 && after.slice(lost + 1).some((l) => l.msg === 'hearing key revocations; key cache on');
    });
    const after = logLines(b.output()).slice(linesBefore);
    const lostLine = after.find((l) => l.msg.startsWith('lost the key revocation channel'))!;
    expect(lostLine.level).toBe(40); // warn
    const hearing = after.filter((l) => l.msg === 'hearing key revocations; key cache on');
    expect(hearing.every((l) => l.level === 30)).toBe(true); // info
    expect(b.output()).toContain('lost the key revocation channel; key cache off until it is back');

    // Both stay refused; a fresh key works, and is served from memory again (the cache is back on).
    expectRefused(await b.probe(key));
    expectRefused(await b.probe(silentlyRevoked));
    const { key: fresh, id: freshId } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(fresh));
    expectAccepted(await b.probe(fresh));
    await revokeSilently(url, freshId);
    expectAccepted(await b.probe(fresh));
    // And notifications are heard again on the new connection.
    const { key: later, id: laterId } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(later));
    await revoke(a, owner, laterId);
    await until('the other process to refuse a key revoked after the reconnection', async () => (await b.probe(later)).status === 401);
  });
});
