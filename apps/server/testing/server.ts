import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { type SeededAccount, seedAccount, seedMembership, type SeedOptions, TEST_PASSWORD } from '@lfk/api/testing';
import { countRows, ownDatabase, rawSql, replicaOf, sharedDatabase } from '@lfk/db/testing';
import { authenticatorCode, linkTokenSentTo, PasskeyAuthenticator, type Res, TEST_SECRET_KEY } from '@lfk/testing';
import { afterAll, beforeAll } from 'vitest';
import type { WebhookWorkerSettings } from '@lfk/api';
import { type Config, createServer, type LfkServer, loadConfig, type OutboxSenderOptions, RATE_LIMITS_OFF } from '../src/index.ts';

export const PASSWORD = TEST_PASSWORD;

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** A raw body sent as is (with the given content type, JSON by default). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** The client's address as the server sees it (127.0.0.1 unless given). */
  remoteAddress?: string;
}

/** An account made by `signup`: its session token, its user, its first workspace and its address. */
export type Account = SeededAccount;

/** How a test server differs from the default, besides its environment. */
export interface TestServerOptions {
  outbox?: Partial<OutboxSenderOptions>;
  /** The webhook worker's settings (a short poll, a short lock for a replica that "died"), and its requests' timeout. */
  webhooks?: Partial<WebhookWorkerSettings & { timeoutMs: number }>;
  config?: Partial<Config>;
  /**
   * `shared` (the default): the worker's database, emptied before each file. `own`: a copy of
   * its own, closed (and on PostgreSQL dropped) with the server, for a test that breaks it.
   * A `DATABASE_URL` in the environment (a second replica of another test server) overrides both:
   * the server opens that database with a pool of its own.
   */
  database?: 'shared' | 'own';
}

export interface TestServer {
  server: LfkServer;
  /** Every JSON log line the server wrote. */
  logs: string[];
  /** Every key, session token and claim token the server handed out. */
  secretsHandedOut: Set<string>;
  request(method: string, url: string, options?: RequestOptions): Promise<Res>;
  /**
   * A new account (user, personal workspace, session), written by the same code sign-up runs but
   * without HTTP or hashing the password again: what a test needs when sign-up is not what it tests.
   * Its address is confirmed unless `{ confirmed: false }`.
   */
  signup(email?: string, options?: SeedOptions): Promise<Account>;
  /** A new account through `POST /v1/auth/signup`, as a person signs up: its address not confirmed yet. */
  signupOverHttp(email?: string): Promise<Account>;
  /** Confirms the address of an account signed up over HTTP, as its person does: the link emailed at sign-up, its "Verify" button. */
  confirmAddress(email: string): Promise<void>;
  createKey(token: string, workspaceId: string, name?: string): Promise<{ key: string; id: string }>;
  /** A new account, and a key of its workspace with the key's id. */
  signupWithKey(): Promise<{ owner: Account; key: string; id: string }>;
  /** Seeds a membership, as an accepted invitation makes one. */
  addMember(workspaceId: string, email: string, role: 'owner' | 'member'): Promise<void>;
  /** An owner, a member of the owner's workspace, and an outsider (who has a workspace of their own only). */
  signupTeam(): Promise<{ owner: Account; member: Account; outsider: Account }>;
  /**
   * Sets up an authenticator app for the account, as its person does (start, then a first code of
   * the server's current step): its secret, and the recovery codes handed out once.
   */
  enableAuthenticator(token: string): Promise<{ secret: string; recoveryCodes: string[] }>;
  /**
   * Adds a passkey to the account, as its person does in a browser (the options, then what the
   * authenticator made with them), on `device` (a new software authenticator for this server's
   * origin unless given): the device, which signs with it from then on, and the passkey's id.
   */
  addPasskey(token: string, device?: PasskeyAuthenticator): Promise<{ device: PasskeyAuthenticator; passkeyId: string; recoveryCodes: string[] | null }>;
  /** Raw SQL against the server's database. */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  /** How many rows `fromWhere` holds, e.g. `count('forms where id = ?', [id])` (`countRows`, @lfk/db/testing). */
  count(fromWhere: string, params?: unknown[]): Promise<number>;
  close(): Promise<void>;
}

let counter = 0;
const newAddress = () => `user${++counter}-${randomBytes(3).toString('hex')}@example.com`;

const SECRET_PATTERN = /\b(?:lfk|lfs|lfc|lfv|lfm)_[0-9A-Za-z]{30,}\b|\bwhsec_[0-9A-Za-z+/]{40,}={0,2}/g;

export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const envConfig = loadConfig({
    PORT: '0',
    LOG_LEVEL: 'info',
    LFK_PUBLIC_URL: 'http://lfk.test',
    LFK_SECRET_KEY: TEST_SECRET_KEY,
    // Rate limits are off unless a test turns one on: suites sign up and log in many times from one address.
    ...RATE_LIMITS_OFF,
    ...env,
  });
  const database = env.DATABASE_URL
    ? await replicaOf(env.DATABASE_URL, envConfig.databaseTimeouts)
    : options.database === 'own'
      ? await ownDatabase()
      : await sharedDatabase();
  const { timeoutMs, ...worker } = options.webhooks ?? {};
  const config = {
    ...envConfig,
    // Files and the spool are each server's own on either database (a temporary folder, gone at close):
    // on PostgreSQL they used to land in ./.lfk/data, shared by every suite running at once, whose
    // counts of stored objects and spool files then saw each other's uploads.
    databaseUrl: database.url ?? undefined,
    dataDir: env.LFK_DATA_DIR ?? 'memory://',
    // The API alone, unless a test asks for the dashboard (`config: { dashboardDir }`).
    dashboardDir: undefined,
    // No browser kit either, unless a test asks for it (`config: { kitDir }`).
    kitDir: undefined,
    outbox: { ...envConfig.outbox, ...options.outbox },
    webhookWorker: { ...envConfig.webhookWorker, ...worker },
    webhooks: { ...envConfig.webhooks, ...(timeoutMs ? { timeoutMs } : {}) },
    // Settings that are not in the environment (such as how often last_used_at is written).
    ...options.config,
  };
  const server = await createServer(config, {
    logStream,
    db: database.db,
  });
  const secretsHandedOut = new Set<string>();

  const request: TestServer['request'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | Buffer | undefined;
    if (options.raw !== undefined) {
      payload = options.raw;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await server.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    for (const secret of res.body.match(SECRET_PATTERN) ?? []) secretsHandedOut.add(secret);
    for (const cookie of [res.headers['set-cookie'] ?? []].flat()) {
      for (const secret of String(cookie).match(SECRET_PATTERN) ?? []) secretsHandedOut.add(secret);
    }
    let json: unknown;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body: res.body, json };
  };

  const t: TestServer = {
    server,
    logs,
    secretsHandedOut,
    request,
    async signup(email, options) {
      const account = await seedAccount(server.db, email ?? newAddress(), server.config.now(), options);
      secretsHandedOut.add(account.token);
      return account;
    },
    async signupOverHttp(email) {
      const address = email ?? newAddress();
      const res = await request('POST', '/v1/auth/signup', { body: { email: address, password: PASSWORD } });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.body}`);
      return { token: res.json.session_token, userId: res.json.user.id, workspaceId: res.json.workspace.id, email: address };
    },
    async confirmAddress(email) {
      const token = await linkTokenSentTo(t, email, 'account_verification');
      const res = await request('POST', `/v1/email-verifications/${token}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: '' });
      if (res.status !== 200) throw new Error(`address confirmation failed: ${res.status} ${res.body}`);
    },
    async createKey(token, workspaceId, name) {
      const res = await request('POST', `/v1/workspaces/${workspaceId}/api-keys`, { token, body: name ? { name } : {} });
      if (res.status !== 201) throw new Error(`key create failed: ${res.status} ${res.body}`);
      return { key: res.json.key, id: res.json.id };
    },
    async signupWithKey() {
      const owner = await t.signup();
      return { owner, ...(await t.createKey(owner.token, owner.workspaceId)) };
    },
    async addMember(workspaceId, email, role) {
      await seedMembership(server.db, workspaceId, email, role);
    },
    async signupTeam() {
      const owner = await t.signup();
      const member = await t.signup();
      const outsider = await t.signup();
      await t.addMember(owner.workspaceId, member.email, 'member');
      return { owner, member, outsider };
    },
    async enableAuthenticator(token) {
      const started = await request('POST', '/v1/auth/two-factor/totp', { token });
      if (started.status !== 201) throw new Error(`authenticator setup failed: ${started.status} ${started.body}`);
      const secret = started.json.secret as string;
      const code = await authenticatorCode(secret, 0, server.config.now());
      const confirmed = await request('POST', '/v1/auth/two-factor/totp/confirm', { token, body: { code } });
      if (confirmed.status !== 200) throw new Error(`authenticator confirmation failed: ${confirmed.status} ${confirmed.body}`);
      return { secret, recoveryCodes: confirmed.json.recovery_codes as string[] };
    },
    async addPasskey(token, device = new PasskeyAuthenticator(new URL(server.config.publicUrl).origin)) {
      const options = await request('POST', '/v1/auth/two-factor/passkeys/options', { token });
      if (options.status !== 200) throw new Error(`passkey options failed: ${options.status} ${options.body}`);
      const added = await request('POST', '/v1/auth/two-factor/passkeys', {
        token,
        body: { name: 'Test passkey', credential: device.register(options.json.options) },
      });
      if (added.status !== 201) throw new Error(`passkey addition failed: ${added.status} ${added.body}`);
      return { device, passkeyId: added.json.passkey.id as string, recoveryCodes: added.json.recovery_codes as string[] | null };
    },
    sql: (query, params = []) => rawSql(server.db, query, params),
    count: (fromWhere, params = []) => countRows(server.db, fromWhere, params),
    async close() {
      try {
        await server.close();
      } finally {
        await database.release();
      }
    },
  };
  return t;
}

/**
 * The test server of the enclosing file or describe block: started on the worker's database in a
 * `beforeAll` (after the hooks registered before this call, so `env` may be a function that reads
 * what they set up) and closed in an `afterAll` (after the hooks registered later). The handle is
 * filled in when the server has started: use it in hooks and tests, not while the file is loading.
 */
export function useTestServer(env: Record<string, string> | (() => Record<string, string>) = {}, options: TestServerOptions = {}): TestServer {
  const handle = {} as TestServer;
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(typeof env === 'function' ? env() : env, options);
    Object.assign(handle, started);
  });
  afterAll(async () => {
    await started?.close();
  });
  return handle;
}
