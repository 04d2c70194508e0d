/**
 * A person's sessions signed out: one (`auth.revokeSession`), or every other one
 * (`auth.revokeOtherSessions`). How a session is listed with where it was used (its User-Agent and
 * address, which HTTP brings) is apps/server/test/accounts/sessions.test.ts's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { TEST_PASSWORD } from '../../testing.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused } from '../../../test/support/refusals.ts';
import { callerFor, person, testServices } from '../../../test/world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

const as = (token: string) => callerFor(services, token);
const login = async (email: string) => (await (await callerFor(services)).auth.login({ email, password: TEST_PASSWORD })).session_token;
const list = async (token: string) => (await (await as(token)).auth.sessions()).data;
const revoke = async (token: string, sessionId: string) => (await as(token)).auth.revokeSession({ session_id: sessionId });
const whoAmI = async (token: string) => (await as(token)).auth.session();

describe('sessions', () => {
  it('one is signed out: it stops at once; another person’s or an unknown one is 404; this one signs out', async () => {
    const me = await person(services);
    const someone = await person(services);
    const other = await login(me.email);
    const ids = await list(me.token);
    const otherId = ids.find((s) => !s.current && s.id)!.id;
    await revoke(me.token, otherId);
    await expectRefused(whoAmI(other), 401, 'invalid_session');
    await expectRefused(revoke(me.token, otherId), 404, 'session_not_found');
    const theirs = (await list(someone.token))[0]!.id;
    await expectRefused(revoke(me.token, theirs), 404, 'session_not_found');
    expect(await whoAmI(someone.token)).toBeTruthy();
    for (const id of ['ses_00000000000000000000000000', 'nonsense', 'x'.repeat(300)]) {
      await expectRefused(revoke(me.token, id), 404, 'session_not_found', { what: id.slice(0, 40) });
    }
    const mine = (await list(me.token)).find((s) => s.current)!.id;
    await revoke(me.token, mine);
    await expectRefused(whoAmI(me.token), 401, 'invalid_session');
  });

  it('every other one is signed out at once; keys cannot list or end sessions', async () => {
    const me = await person(services);
    const others = [await login(me.email), await login(me.email)];
    expect(await (await as(me.token)).auth.revokeOtherSessions()).toEqual({ revoked: 2 });
    for (const token of others) await expectRefused(whoAmI(token), 401, 'invalid_session');
    expect((await list(me.token)).map((s) => s.current)).toEqual([true]);
    const { key } = await createKey(services, await person(services));
    await expectRefused((await as(key)).auth.sessions(), 403, 'session_required');
    await expectRefused((await as(key)).auth.revokeOtherSessions(), 403, 'session_required');
  });
});
