import { describe, expect, it } from 'vitest';
import { PASSWORD, type Res, TEST_DATABASE_URL, type TestServer, useTestServer } from '@lfk/server/testing';

// The security limits — guesses at one account's password, guesses at keys, sign-ups and logins
// per address — are counted in the database, so they hold for the account or address whatever
// address or replica the guesses come through.

const expectError = (res: Res, status: number, code: string) => {
  expect(res.status, res.body).toBe(status);
  expect(res.json?.error?.code, res.body).toBe(code);
};
const expectRetryAfter = (res: Res) => expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
const address = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;
const login = (s: TestServer, email: string, password: string, ip: string) =>
  s.request('POST', '/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });
/** A different client address each call. */
let nextAddress = 1;
const anotherIp = () => `203.0.113.${nextAddress++ % 250}`;

describe('failed logins, per account', () => {
  const s = useTestServer({ LFK_RATE_LIMIT_LOGIN_FAILURES: '3/1m', LFK_TRUST_PROXY: '127.0.0.1' });

  it('3 wrong guesses from 3 addresses hold the account: the 4th, from a 4th address, is 429 even with the right password', async () => {
    const { email } = await s.signup(address('victim'));
    for (let i = 0; i < 3; i++) expectError(await login(s, email, `wrong guess ${i}`, anotherIp()), 401, 'invalid_credentials');
    const held = await login(s, email, PASSWORD, anotherIp());
    expectError(held, 429, 'rate_limited');
    expectRetryAfter(held);
    expect(held.json.session_token).toBeUndefined();
    expect(held.headers['set-cookie']).toBeUndefined();
  });

  it('an email with no account is held the same way, with the same answers', async () => {
    const { email } = await s.signup(address('exists'));
    const nobody = address('nobody');
    const answers = { exists: [] as Res[], nobody: [] as Res[] };
    for (let i = 0; i < 4; i++) {
      answers.exists.push(await login(s, email, `wrong ${i}`, anotherIp()));
      answers.nobody.push(await login(s, nobody, `wrong ${i}`, anotherIp()));
    }
    const shape = (res: Res) => ({
      status: res.status,
      code: res.json?.error?.code,
      message: res.json?.error?.message.replace(/\d+ seconds?/, 'N seconds'),
      retryAfter: res.headers['retry-after'] !== undefined,
    });
    expect(answers.nobody.map(shape)).toEqual(answers.exists.map(shape));
    expect(answers.exists.map((r) => r.status)).toEqual([401, 401, 401, 429]);
  });

  it('counts the account by its address whatever its case', async () => {
    const { email } = await s.signup(address('cased'));
    for (const variant of [email.toUpperCase(), email, ` ${email.replace(/^./, (c) => c.toUpperCase())} `]) {
      expectError(await login(s, variant, 'wrong guess', anotherIp()), 401, 'invalid_credentials');
    }
    expectError(await login(s, email, PASSWORD, anotherIp()), 429, 'rate_limited');
  });

  it('a right password spends nothing: after 2 wrong guesses, 5 good logins in a row all succeed', async () => {
    const { email } = await s.signup(address('owner'));
    expectError(await login(s, email, 'typo one', anotherIp()), 401, 'invalid_credentials');
    expectError(await login(s, email, 'typo two', anotherIp()), 401, 'invalid_credentials');
    for (let i = 0; i < 5; i++) expect((await login(s, email, PASSWORD, anotherIp())).status).toBe(200);
    // The budget is still one guess, not less.
    expectError(await login(s, email, 'typo three', anotherIp()), 401, 'invalid_credentials');
    expectError(await login(s, email, PASSWORD, anotherIp()), 429, 'rate_limited');
  });

  it('other accounts are not affected', async () => {
    const { email: held } = await s.signup(address('held'));
    const { email: other } = await s.signup(address('other'));
    const ip = anotherIp();
    for (let i = 0; i < 4; i++) await login(s, held, `wrong ${i}`, ip);
    expect((await login(s, other, PASSWORD, ip)).status).toBe(200);
  });

  it('10 guesses at once get exactly 3 answers that judge the password; the rest are 429', async () => {
    const { email } = await s.signup(address('parallel'));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => login(s, email, `parallel guess ${i}`, anotherIp())));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
  });
});

describe('the limits are kept in the database', () => {
  const s = useTestServer({ LFK_RATE_LIMIT_LOGIN_FAILURES: '3/1m', LFK_RATE_LIMIT_KEY_FAILURES: '3/1m', LFK_TRUST_PROXY: '127.0.0.1' });

  it('a failed login writes the account bucket; a refused key writes the address bucket; a valid key writes nothing', async () => {
    const owner = await s.signup(address('rows'));
    const { key } = await s.createKey(owner.token, owner.workspaceId);
    const bucketCount = () => s.count('rate_limit_buckets');
    const before = await bucketCount();
    for (let i = 0; i < 20; i++) {
      const ok = await s.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
      expect(ok.status).toBe(200);
      const byKey = await s.request('POST', '/v1/forms', {
        token: key,
        body: { name: 'Counted nowhere', schema: [{ name: 'email', type: 'email', required: true }] },
        headers: { 'x-forwarded-for': '198.51.100.77' },
      });
      expect(byKey.status, byKey.body).toBe(201);
    }
    expect(await bucketCount()).toBe(before);

    await login(s, owner.email, 'wrong', '198.51.100.78');
    await s.request('GET', '/v1/forms/form_x', { token: `lfk_${'B'.repeat(36)}`, headers: { 'x-forwarded-for': '198.51.100.79' } });
    const rows = await s.sql<{ limit_name: string; subject: string }>('select limit_name, subject from rate_limit_buckets order by limit_name');
    expect(rows).toEqual(
      expect.arrayContaining([
        { limit_name: 'login_failures', subject: owner.email },
        { limit_name: 'key_failures', subject: '198.51.100.79' },
      ]),
    );
  });
});

describe.runIf(!!TEST_DATABASE_URL)('two replicas on one PostgreSQL database share the limits', () => {
  const limits = {
    LFK_RATE_LIMIT_LOGIN_FAILURES: '4/1m',
    LFK_RATE_LIMIT_KEY_FAILURES: '4/1m',
    LFK_RATE_LIMIT_LOGIN: '4/1m',
    LFK_TRUST_PROXY: '127.0.0.1',
  };
  const a = useTestServer(limits);
  const b = useTestServer(() => ({ ...limits, DATABASE_URL: a.server.config.databaseUrl! }));

  it('password guesses at one account through both replicas add up', async () => {
    const { email } = await a.signup(address('replicated'));
    expectError(await login(a, email, 'wrong 1', anotherIp()), 401, 'invalid_credentials');
    expectError(await login(b, email, 'wrong 2', anotherIp()), 401, 'invalid_credentials');
    expectError(await login(a, email, 'wrong 3', anotherIp()), 401, 'invalid_credentials');
    expectError(await login(b, email, 'wrong 4', anotherIp()), 401, 'invalid_credentials');
    expectError(await login(a, email, PASSWORD, anotherIp()), 429, 'rate_limited');
    expectError(await login(b, email, PASSWORD, anotherIp()), 429, 'rate_limited');
  });

  it('refused keys from one address through both replicas add up, and then hold back its valid key on both', async () => {
    const owner = await a.signup(address('keys'));
    const { key } = await a.createKey(owner.token, owner.workspaceId);
    const attacker = { 'x-forwarded-for': '198.51.100.200' };
    const guess = (s: TestServer, i: number) => s.request('GET', '/v1/forms/form_x', { token: `lfk_${String(i).repeat(36).slice(0, 36)}`, headers: attacker });
    expectError(await guess(a, 1), 401, 'invalid_api_key');
    expectError(await guess(b, 2), 401, 'invalid_api_key');
    expectError(await guess(a, 3), 401, 'invalid_api_key');
    expectError(await guess(b, 4), 401, 'invalid_api_key');
    // The 5th guess, through either replica, is held back, and so is the address's valid key.
    expectError(await guess(a, 5), 429, 'rate_limited');
    expectError(await guess(b, 6), 429, 'rate_limited');
    for (const s of [a, b]) {
      const held = await s.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: key, headers: attacker });
      expectError(held, 429, 'rate_limited');
      expectRetryAfter(held);
    }
  });

  it('sign-ups and logins from one address through both replicas add up', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.201' };
    const signup = (s: TestServer) => s.request('POST', '/v1/auth/signup', { body: { email: address('many'), password: PASSWORD }, headers: ip });
    expect((await signup(a)).status).toBe(201);
    expect((await signup(b)).status).toBe(201);
    expect((await signup(a)).status).toBe(201);
    expect((await signup(b)).status).toBe(201);
    expectError(await signup(a), 429, 'rate_limited');
    expectError(await signup(b), 429, 'rate_limited');
  });
});
