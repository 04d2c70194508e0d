/**
 * Leak reports (issue 14): `POST /v1/secret-scanning/reports` in GitHub's partner format, signed
 * with a key pair these tests generate and the server trusts through `LFK_SECRET_SCANNING_KEYS`.
 * Each valid key reported is revoked at once (`leaked`), its owners emailed once with where it was
 * found, an audit event names the reporter; badly signed reports are 401 and change nothing.
 */
import { createHash } from 'node:crypto';
import { generateApiKey } from '@lfk/api';
import { ConfigError, loadConfig } from '@lfk/server';
import { ENGINE, expectError, type Res, reporterKeys, signed } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import { auditActions, countStatements, createKey, emailsTo, expectAccepted, expectRefused, getKey, probe, useKeysServer, testClock } from './fixtures.ts';

const REPORTS = '/v1/secret-scanning/reports';
const github = reporterKeys();
const stranger = reporterKeys(github.identifier);
const clock = testClock();
const t = useKeysServer(clock, { LFK_SECRET_SCANNING_KEYS: github.env });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const found = (token: string, url = 'https://github.com/octocat/hello/blob/abc123/config.js') => ({
  token,
  type: 'lfk_api_key',
  url,
  source: 'content',
});
const report = (body: string, headers: Record<string, string>): Promise<Res> => t.request('POST', REPORTS, { raw: body, headers });

async function ownersOfOneWorkspace() {
  const owner = await t.signup();
  const coOwner = await t.signup();
  await t.addMember(owner.workspaceId, coOwner.email, 'owner');
  const member = await t.signup();
  await t.addMember(owner.workspaceId, member.email, 'member');
  return { owner, coOwner, member };
}

describe(`a signed leak report (${ENGINE})`, () => {
  it('revokes each valid key at once, emails its owners where it was found, records the reporter, and labels every token', async () => {
    const { owner, coOwner, member } = await ownersOfOneWorkspace();
    const leaked = await createKey(t, owner, { name: 'ci' });
    const alreadyRevoked = await createKey(t, owner);
    await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${alreadyRevoked.id}`, { token: owner.token });
    const bystander = await createKey(t, owner);
    expectAccepted(await probe(t, leaked.key));
    const unknown = generateApiKey().key;
    const notAKey = `${leaked.key.slice(0, -1)}${leaked.key.endsWith('A') ? 'B' : 'A'}`;

    const body = JSON.stringify([found(leaked.key), found(notAKey), found(unknown), found(alreadyRevoked.key)]);
    const res = await report(body, signed(body, github));
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual([
      { token_hash: sha256(leaked.key), token_type: 'lfk_api_key', label: 'true_positive' },
      { token_hash: sha256(notAKey), token_type: 'lfk_api_key', label: 'false_positive' },
      { token_hash: sha256(unknown), token_type: 'lfk_api_key', label: 'false_positive' },
      { token_hash: sha256(alreadyRevoked.key), token_type: 'lfk_api_key', label: 'true_positive' },
    ]);
    // The answer never echoes a token.
    expect(res.body).not.toContain(leaked.key);

    expectRefused(await probe(t, leaked.key));
    expectAccepted(await probe(t, bystander.key));
    expect(await getKey(t, owner, leaked.id)).toMatchObject({ status: 'revoked', revoked_reason: 'leaked', revoked_at: clock.now().toISOString() });
    expect(await getKey(t, owner, alreadyRevoked.id)).toMatchObject({ revoked_reason: 'revoked' });

    for (const o of [owner, coOwner]) {
      const mail = await emailsTo(t, o.email, 'api_key_leaked');
      expect(mail).toHaveLength(1);
      expect(mail[0]!.subject).toContain(leaked.json.prefix);
    }
    expect(await emailsTo(t, member.email, 'api_key_leaked')).toEqual([]);
    const events = await auditActions(t, owner.workspaceId, 'api_key.leaked');
    expect(events).toEqual([
      {
        actor_type: 'secret_scanner',
        actor_id: 'github',
        target_id: leaked.id,
        data: {
          reporter: 'GitHub secret scanning',
          key_identifier: github.identifier,
          url: 'https://github.com/octocat/hello/blob/abc123/config.js',
          source: 'content',
          type: 'lfk_api_key',
        },
      },
    ]);
    // The audit log reads it back as its action's documented `data`.
    const log = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token });
    expect(log.json.data.find((e: { action: string }) => e.action === 'api_key.leaked')?.data).toEqual(events[0]!.data);
    // The owners' email says where: the sender delivers it (to the log, without SMTP) with the url.
    await expect.poll(() => t.logs.some((line) => line.includes('api_key_leaked') && line.includes('octocat/hello/blob/abc123'))).toBe(true);
  });

  it('reported again, or twice at once, revokes and emails exactly once', async () => {
    const { owner, coOwner } = await ownersOfOneWorkspace();
    const leaked = await createKey(t, owner);
    const body = JSON.stringify([found(leaked.key, 'https://github.com/a/b/blob/1/x'), found(leaked.key, 'https://github.com/a/b/blob/1/y')]);
    const headers = signed(body, github);
    const answers = await Promise.all([report(body, headers), report(body, headers), report(body, headers)]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.json.map((l: { label: string }) => l.label)).toEqual(['true_positive', 'true_positive']);
    }
    const again = await report(body, headers);
    expect(again.status).toBe(200);
    for (const o of [owner, coOwner]) expect(await emailsTo(t, o.email, 'api_key_leaked')).toHaveLength(1);
    expect(await auditActions(t, owner.workspaceId, 'api_key.leaked')).toHaveLength(1);
  });

  it('drops tokens that are not keys by their checksum without asking the database', async () => {
    const key = generateApiKey().key;
    const tokens = ['lfk_short', `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, 'ghp_somethingelse', ''];
    const body = JSON.stringify(tokens.map((token) => found(token)));
    const headers = signed(body, github);
    const counted = countStatements(t.server);
    let res: Res;
    try {
      res = await report(body, headers);
    } finally {
      counted.stop();
    }
    expect(res.status, res.body).toBe(200);
    expect(res.json.map((l: { label: string }) => l.label)).toEqual(tokens.map(() => 'false_positive'));
    expect(counted.statements).toEqual([]);
  });
});

describe(`a report that is not signed by a trusted key (${ENGINE})`, () => {
  it('is 401 invalid_signature and changes nothing: unsigned, tampered, another key, an unknown identifier, a garbled signature', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner);
    const body = JSON.stringify([found(key.key)]);
    const good = signed(body, github);
    const tampered = JSON.stringify([found(key.key, 'https://github.com/evil/elsewhere')]);
    const cases: [string, string, Record<string, string>][] = [
      ['unsigned', body, {}],
      ['no identifier', body, { 'github-public-key-signature': good['github-public-key-signature']! }],
      ['no signature', body, { 'github-public-key-identifier': github.identifier }],
      ['tampered body', tampered, good],
      ['signed by another key', body, signed(body, stranger)],
      ['unknown identifier', body, { ...good, 'github-public-key-identifier': 'b'.repeat(64) }],
      ['garbled signature', body, { ...good, 'github-public-key-signature': 'not base64!' }],
      ['a 5,000-character signature', body, { ...good, 'github-public-key-signature': 'A'.repeat(5000) }],
      ['a 5,000-character identifier', body, { ...good, 'github-public-key-identifier': 'a'.repeat(5000) }],
      ['empty body', '', good],
    ];
    for (const [what, sent, headers] of cases) {
      expectError(await report(sent, headers), 401, 'invalid_signature', { what });
    }
    expectAccepted(await probe(t, key.key));
    expect(await getKey(t, owner, key.id)).toMatchObject({ status: 'active', revoked_reason: null });
    expect(await emailsTo(t, owner.email, 'api_key_leaked')).toEqual([]);
    expect(await auditActions(t, owner.workspaceId, 'api_key.leaked')).toEqual([]);
  });

  it('signed but not a report: invalid JSON is 400 invalid_json, the wrong shape 400 invalid_request', async () => {
    for (const [body, code] of [
      ['[{"token":', 'invalid_json'],
      ['{"token":"x"}', 'invalid_request'],
      ['[]', 'invalid_request'],
      ['[{"type":"x"}]', 'invalid_request'],
    ] as const) {
      expectError(await report(body, signed(body, github)), 400, code, { what: body });
    }
  });
});

describe('LFK_SECRET_SCANNING_KEYS', () => {
  it("takes a map of identifier → PEM, or GitHub's public_keys document, and stops the server on anything else", () => {
    const base = { LFK_DATA_DIR: 'memory://' };
    expect(loadConfig({ ...base, LFK_SECRET_SCANNING_KEYS: github.env }).secretScanningKeys.has(github.identifier)).toBe(true);
    const document = JSON.stringify({ public_keys: [{ key_identifier: 'k1', key: github.pem, is_current: true }] });
    expect([...loadConfig({ ...base, LFK_SECRET_SCANNING_KEYS: document }).secretScanningKeys.keys()]).toEqual(['k1']);
    expect(loadConfig(base).secretScanningKeys.size).toBe(0);
    for (const bad of ['not json', '{}', '[]', JSON.stringify({ k: 'not a pem' }), JSON.stringify({ k: 42 })]) {
      expect(() => loadConfig({ ...base, LFK_SECRET_SCANNING_KEYS: bad }), bad).toThrow(ConfigError);
    }
  });
});
