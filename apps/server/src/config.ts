import {
  BACKGROUND_DEFAULTS,
  CAPTCHA_TIMEOUT_MS,
  CAPTCHA_VERIFY_URLS,
  type CaptchaSettings,
  DEFAULT_EXPORTS_PER_PERSON,
  DEFAULT_LONG_POLL_LIMITS,
  type ObjectStorageSettings,
  DEFAULT_RATE_LIMITS,
  parseClamdUrl,
  parseSecretKey,
  RATE_LIMIT_NAMES,
  type RateLimitConfig,
  type RateLimitName,
} from '@lfk/api';
import { DATABASE_TIMEOUTS, type DatabaseTimeouts, longestDatabaseWait } from '@lfk/db';
import { FILE_FIELD_LIMITS, FILE_LINK_TTL, WEBHOOK_IN_FLIGHT_PER_WORKSPACE } from '@lfk/vocabulary';
import ipaddr from 'ipaddr.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';

const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);
const flagDefaulting = (fallback: 'true' | 'false') =>
  z.preprocess(
    emptyAsUnset,
    z.enum(['true', 'false', '1', '0', 'yes', 'no']).default(fallback).transform((v) => ['true', '1', 'yes'].includes(v)),
  );
const flag = flagDefaulting('true');
/** A captcha provider's siteverify URL: its own by default; a local fake in tests. */
const verifyUrl = (fallback: string) =>
  z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL.' }).default(fallback));

/** `LFK_SECRET_KEY`: 32 bytes as 64 hex digits or base64. */
const secretKey = z.preprocess(
  emptyAsUnset,
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const key = parseSecretKey(value);
      if (key === null) {
        ctx.addIssue({ code: 'custom', message: 'Must be 32 bytes written as 64 hex digits or as base64 (openssl rand -hex 32).' });
        return z.NEVER;
      }
      return key;
    }),
);

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };

/** `10/1m`: ten requests per minute (units s, m, h, d); `off` turns the limit off. */
const rateLimit = (fallback: RateLimitConfig[RateLimitName]) =>
  z.preprocess(
    emptyAsUnset,
    z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return fallback;
        if (value === 'off') return null;
        const match = /^(\d{1,9})\/(\d{1,9})([smhd])$/.exec(value);
        if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
          ctx.addIssue({ code: 'custom', message: 'Must be <count>/<duration> such as 10/1m (units s, m, h, d), or off.' });
          return z.NEVER;
        }
        return { capacity: Number(match[1]), windowMs: Number(match[2]) * UNIT_MS[match[3]!]! };
      }),
  );

/**
 * `LFK_SECRET_SCANNING_KEYS`: the public keys trusted to sign leak reports, as JSON — either an
 * object of key identifier → PEM public key, or GitHub's own document as
 * `https://api.github.com/meta/public_keys/secret_scanning` serves it
 * (`{ "public_keys": [{ "key_identifier", "key", … }] }`). Each must be an ECDSA P-256 key.
 */
const secretScanningKeys = z.preprocess(
  emptyAsUnset,
  z
    .string()
    .max(100_000)
    .optional()
    .transform((value, ctx) => {
      const keys = new Map<string, KeyObject>();
      if (value === undefined) return keys;
      const fail = (message: string) => {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      };
      let json: unknown;
      try {
        json = JSON.parse(value);
      } catch {
        return fail('Must be JSON: {"<key identifier>": "<PEM public key>"}, or GitHub\'s {"public_keys": [...]} document.');
      }
      const listed = (json as { public_keys?: unknown })?.public_keys;
      const entries: [unknown, unknown][] = Array.isArray(listed)
        ? listed.map((k) => [(k as { key_identifier?: unknown })?.key_identifier, (k as { key?: unknown })?.key])
        : typeof json === 'object' && json !== null && !Array.isArray(json)
          ? Object.entries(json)
          : [];
      if (entries.length === 0) return fail('Must name at least one key.');
      for (const [id, pem] of entries) {
        if (typeof id !== 'string' || id === '' || typeof pem !== 'string') return fail('Each key needs an identifier and a PEM string.');
        try {
          const key = createPublicKey(pem);
          if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
            return fail(`Key ${id} is not an ECDSA P-256 public key.`);
          }
          keys.set(id, key);
        } catch {
          return fail(`Key ${id} is not a PEM public key.`);
        }
      }
      return keys;
    }),
);

/** The environment variable of each rate limit. */
export const RATE_LIMIT_ENV: Record<RateLimitName, string> = {
  anonymous_forms: 'LFK_RATE_LIMIT_ANONYMOUS_FORMS',
  login: 'LFK_RATE_LIMIT_LOGIN',
  login_failures: 'LFK_RATE_LIMIT_LOGIN_FAILURES',
  key_failures: 'LFK_RATE_LIMIT_KEY_FAILURES',
  browser_submissions: 'LFK_RATE_LIMIT_BROWSER_SUBMISSIONS',
  password_resets: 'LFK_RATE_LIMIT_PASSWORD_RESETS',
  password_reset_emails: 'LFK_RATE_LIMIT_PASSWORD_RESET_EMAILS',
  invitations: 'LFK_RATE_LIMIT_INVITATIONS',
  device_code_guesses: 'LFK_RATE_LIMIT_DEVICE_CODE_GUESSES',
  auto_reply_recipients: 'LFK_RATE_LIMIT_AUTO_REPLY_RECIPIENTS',
  auto_reply_forms: 'LFK_RATE_LIMIT_AUTO_REPLY_FORMS',
  auto_reply_workspaces: 'LFK_RATE_LIMIT_AUTO_REPLY_WORKSPACES',
  auto_reply_accounts: 'LFK_RATE_LIMIT_AUTO_REPLY_ACCOUNTS',
  unasked_emails: 'LFK_RATE_LIMIT_UNASKED_EMAILS',
};

/** Every rate limit turned off, as environment variables: for tests and benchmarks that send the load themselves. */
export const RATE_LIMITS_OFF: Record<string, string> = Object.fromEntries(Object.values(RATE_LIMIT_ENV).map((name) => [name, 'off']));

/** A connection on which nothing moves this long (one opened and never used, a vanished peer) is closed (`LFK_IDLE_TIMEOUT`). */
const IDLE_MS = 60_000;

/**
 * The ordering rule for deadlines, in one place: every dependency a request waits on (the database,
 * a captcha provider, object storage, clamd) must give up before the client's connection, idle while
 * it waits, is cut by `LFK_IDLE_TIMEOUT`. Then the client gets the 503 that says which dependency
 * failed, with `Retry-After`, instead of a reset. The deadlines that are settings (the database's,
 * the captcha's) are refused at start when they are not shorter; those that are not (object
 * storage, clamd) are derived from it by `dependencyDeadlines`. Mail and webhooks are sent by
 * background workers and keep deadlines of their own, but for a webhook's test send (10 s), which a
 * member's request waits on; a held long poll waits up to 20 s by design (docs/reference/settings.md).
 */
const OUTBOUND_BEFORE_INBOUND = (what: string) =>
  `${what} must be shorter than LFK_IDLE_TIMEOUT (60 s unless set): a request waiting on the dependency would otherwise have its connection cut first, and its client a reset instead of a 503.`;

/** How long object storage and clamd may take for one call a request waits on. */
export interface DependencyDeadlines {
  connectMs: number;
  /** One call in all: connecting, every retry, sending and the answer (a download's body streams after it, unbounded). */
  totalMs: number;
}

/**
 * Half the inbound idle timeout (30 s by default), the other half a margin for what the request
 * does around the call; connecting gets at most 5 s of it.
 */
export function dependencyDeadlines(idleMs: number): DependencyDeadlines {
  const totalMs = Math.floor(idleMs / 2);
  return { connectMs: Math.min(5_000, totalMs), totalMs };
}

const envSchema = z.object({
  PORT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUnset, z.string().default('127.0.0.1')),
  LFK_DATA_DIR: z.preprocess(emptyAsUnset, z.string().default('./.lfk/data')),
  DATABASE_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^postgres(ql)?$/, error: 'Must be a postgres:// URL.' }).optional()),
  LFK_PUBLIC_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL.' }).optional()),
  LFK_ALLOW_SIGNUP: flag,
  LOG_LEVEL: z.preprocess(emptyAsUnset, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  LFK_LOG_FORMAT: z.preprocess(emptyAsUnset, z.enum(['auto', 'json', 'pretty']).default('auto')),
  LFK_METRICS: z.preprocess(
    emptyAsUnset,
    z
      .union([z.enum(['true', 'false']), z.string().regex(/^\d{1,5}$/).transform(Number).pipe(z.number().int().min(1).max(65535))], {
        error: 'Must be true, false, or a port number to serve /metrics on by itself.',
      })
      .default('false'),
  ),
  SMTP_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^smtps?$/, error: 'Must be an smtp:// or smtps:// URL.' }).optional()),
  LFK_EMAIL_FROM: z.preprocess(emptyAsUnset, z.string().max(300).default('lfk <no-reply@localhost>')),
  LFK_VERIFY_RESEND_INTERVAL: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(86_400).default(60)),
  LFK_SUDO_WINDOW: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(86_400).default(600)),
  LFK_TRUST_PROXY: z.preprocess(emptyAsUnset, z.string().max(1000).optional().transform(parseTrustProxy)),
  LFK_KEY_CACHE_TTL: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(3600).default(30)),
  LFK_KEY_CACHE_SIZE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(10_000)),
  LFK_FORM_CACHE_TTL: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(3600).default(30)),
  LFK_FORM_CACHE_SIZE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(10_000)),
  LFK_HEADERS_TIMEOUT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(600).default(10)),
  LFK_REQUEST_TIMEOUT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(3600).default(30)),
  LFK_IDLE_TIMEOUT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(2).max(3600).default(IDLE_MS / 1000)),
  LFK_DATABASE_CONNECT_TIMEOUT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(60).default(DATABASE_TIMEOUTS.connectMs / 1000)),
  LFK_DATABASE_STATEMENT_TIMEOUT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(3600).default(DATABASE_TIMEOUTS.statementMs / 1000)),
  LFK_DASHBOARD_DIR: z.preprocess(emptyAsUnset, z.string().optional()),
  LFK_SECRET_SCANNING_KEYS: secretScanningKeys,
  LFK_SECRET_KEY: secretKey,
  LFK_WEBHOOK_ALLOW_PRIVATE: flagDefaulting('false'),
  LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(100_000).default(WEBHOOK_IN_FLIGHT_PER_WORKSPACE)),
  LFK_TURNSTILE_VERIFY_URL: verifyUrl(CAPTCHA_VERIFY_URLS.turnstile),
  LFK_HCAPTCHA_VERIFY_URL: verifyUrl(CAPTCHA_VERIFY_URLS.hcaptcha),
  LFK_RECAPTCHA_VERIFY_URL: verifyUrl(CAPTCHA_VERIFY_URLS.recaptcha),
  LFK_CAPTCHA_TIMEOUT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(60).default(CAPTCHA_TIMEOUT_MS / 1000)),
  LFK_RETENTION_SWEEP_INTERVAL: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(86_400).default(BACKGROUND_DEFAULTS.retention.everyMs / 1000)),
  LFK_EXPORTS_PER_PERSON: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(1000).default(DEFAULT_EXPORTS_PER_PERSON)),
  LFK_LONG_POLLS_PER_PERSON: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(10_000).default(DEFAULT_LONG_POLL_LIMITS.perPerson)),
  LFK_LONG_POLLS_PER_WORKSPACE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(100_000).default(DEFAULT_LONG_POLL_LIMITS.perWorkspace)),
  LFK_MAX_FILE_SIZE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(FILE_FIELD_LIMITS.maxSize).default(FILE_FIELD_LIMITS.defaultMaxSize)),
  LFK_MAX_SUBMISSION_SIZE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(4 * FILE_FIELD_LIMITS.maxSize).default(FILE_FIELD_LIMITS.defaultSubmissionSize)),
  LFK_FILE_LINK_TTL: z.preprocess(emptyAsUnset, z.coerce.number().int().min(FILE_LINK_TTL.min).max(FILE_LINK_TTL.max).default(FILE_LINK_TTL.default)),
  LFK_UPLOAD_SWEEP_INTERVAL: z.preprocess(emptyAsUnset, z.coerce.number().int().min(2).max(86_400).default(60)),
  LFK_S3_ENDPOINT: z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL.' }).optional()),
  LFK_S3_BUCKET: z.preprocess(
    emptyAsUnset,
    z.string().regex(/^[A-Za-z0-9._-]{3,255}$/, 'Must be a bucket name: 3 to 255 letters, digits, dots, hyphens or underscores.').optional(),
  ),
  LFK_S3_REGION: z.preprocess(emptyAsUnset, z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be a region name such as us-east-1.').default('us-east-1')),
  LFK_S3_ACCESS_KEY_ID: z.preprocess(emptyAsUnset, z.string().max(256).optional()),
  LFK_S3_SECRET_ACCESS_KEY: z.preprocess(emptyAsUnset, z.string().max(1024).optional()),
  LFK_S3_FORCE_PATH_STYLE: flagDefaulting('false'),
  LFK_CLAMD_URL: z.preprocess(emptyAsUnset, z.string().optional().superRefine(validClamdUrl)),
  ...Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [RATE_LIMIT_ENV[name], rateLimit(DEFAULT_RATE_LIMITS[name])])),
}).refine((env) => (env.LFK_S3_ACCESS_KEY_ID === undefined) === (env.LFK_S3_SECRET_ACCESS_KEY === undefined), {
  path: ['LFK_S3_SECRET_ACCESS_KEY'],
  message: 'LFK_S3_ACCESS_KEY_ID and LFK_S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS SDK\'s own credentials (a role, AWS_* variables, a profile).',
}).refine(
  (env) =>
    env.LFK_S3_BUCKET !== undefined ||
    (env.LFK_S3_ENDPOINT === undefined && env.LFK_S3_ACCESS_KEY_ID === undefined && env.LFK_S3_SECRET_ACCESS_KEY === undefined && !env.LFK_S3_FORCE_PATH_STYLE),
  {
    path: ['LFK_S3_BUCKET'],
    message: 'Required with the other LFK_S3_* settings: without a bucket, files would go to LFK_DATA_DIR instead of the store they name.',
  },
).refine(
  (env) =>
    longestDatabaseWait({ connectMs: env.LFK_DATABASE_CONNECT_TIMEOUT * 1000, statementMs: env.LFK_DATABASE_STATEMENT_TIMEOUT * 1000 }) <
    env.LFK_IDLE_TIMEOUT * 1000,
  {
    path: ['LFK_DATABASE_STATEMENT_TIMEOUT'],
    message: OUTBOUND_BEFORE_INBOUND('LFK_DATABASE_CONNECT_TIMEOUT and LFK_DATABASE_STATEMENT_TIMEOUT together (and a second of grace)'),
  },
).refine((env) => env.LFK_CAPTCHA_TIMEOUT < env.LFK_IDLE_TIMEOUT, {
  path: ['LFK_CAPTCHA_TIMEOUT'],
  message: OUTBOUND_BEFORE_INBOUND('LFK_CAPTCHA_TIMEOUT'),
}).refine((env) => env.LFK_HEADERS_TIMEOUT <= env.LFK_REQUEST_TIMEOUT, {
  path: ['LFK_HEADERS_TIMEOUT'],
  message: 'Must not be longer than LFK_REQUEST_TIMEOUT: the headers are part of the request.',
}).refine((env) => env.DATABASE_URL === undefined || env.LFK_SECRET_KEY !== undefined, {
  path: ['LFK_SECRET_KEY'],
  message:
    'Required with DATABASE_URL: every replica seals and opens stored secrets (webhook signing secrets) with the same key. ' +
    'Make one with `openssl rand -hex 32` and give it to every replica.',
});

export interface Config {
  port: number;
  host: string;
  /** PGlite data directory, or `memory://`; unused when `databaseUrl` is set. */
  dataDir: string;
  databaseUrl: string | undefined;
  /** How long PostgreSQL may take to connect and to run a statement (`LFK_DATABASE_*_TIMEOUT`). */
  databaseTimeouts: DatabaseTimeouts;
  /** Where people reach this server; the base of links and the origin cookies belong to. */
  publicUrl: string;
  /**
   * False when `LFK_PUBLIC_URL` is unset and `publicUrl` was derived from `HOST` and `PORT` (local
   * development): the CSRF check then also takes the loopback name a request was addressed to.
   */
  publicUrlIsSet: boolean;
  allowSignup: boolean;
  logLevel: string;
  /**
   * `GET /metrics` (Prometheus text): off, on the API's own port, or on a port of its own
   * (`LFK_METRICS=true|false|<port>`).
   */
  metrics: { enabled: false } | { enabled: true; port: number | null };
  /** `auto`: readable lines when standard output is a terminal, JSON lines otherwise. */
  logFormat: 'auto' | 'json' | 'pretty';
  /** How often API keys' `last_used_at`, address, user agent and usage counts are written, in milliseconds. */
  lastUsedFlushMs: number;
  /** How often expired keys are written down as revoked and expiry reminders queued, in milliseconds. */
  keyLifecycleSweepMs: number;
  /**
   * `LFK_SECRET_KEY`, which seals stored secrets. Unset on the embedded database: the server keeps
   * one in its data directory (see secret-key.ts). Required with `DATABASE_URL`.
   */
  secretKey: Buffer | undefined;
  /**
   * Where submitted files' bytes are kept: the data directory (its folder is worked out from
   * `dataDir` by `objectStorageOf`, so a data directory changed after loading carries its files
   * along), or the bucket `LFK_S3_BUCKET` names.
   */
  objectStorage: { kind: 'directory' } | Extract<ObjectStorageSettings, { kind: 's3' }>;
  /** Captcha providers' siteverify URLs (`LFK_TURNSTILE_VERIFY_URL`…) and how long each may take (`LFK_CAPTCHA_TIMEOUT`). */
  captcha: CaptchaSettings;
  /** How often submissions past their form's retention, and spam past 30 days, are deleted (`LFK_RETENTION_SWEEP_INTERVAL`). */
  retentionSweepMs: number;
  /**
   * `LFK_CLAMD_URL`: where ClamAV's daemon listens (`tcp://host:port`, `unix:///path` or a socket
   * path); each uploaded file is scanned before its submission is kept. Unset: no scanning.
   */
  clamdUrl: string | undefined;
  /** Exports one person may stream at once from this process (`LFK_EXPORTS_PER_PERSON`); past it, 429 `rate_limited`. */
  exportsPerPerson: number;
  /** Long polls of the events feed held open at once in this process, per person and per workspace (`LFK_LONG_POLLS_PER_*`); past either, 429 `rate_limited`. */
  longPolls: { perPerson: number; perWorkspace: number };
  /** Submitted files' limits, links and sweep (`LFK_MAX_FILE_SIZE`, `LFK_MAX_SUBMISSION_SIZE`, `LFK_FILE_LINK_TTL`, `LFK_UPLOAD_SWEEP_INTERVAL`). */
  fileLimits: { maxFileSize: number; maxSubmissionSize: number; linkTtlSeconds: number; uploadSweepMs: number };
  webhooks: {
    /** `LFK_WEBHOOK_ALLOW_PRIVATE`: webhooks may go to private addresses and `http://` (self-hosting, tests). */
    allowPrivate: boolean;
    /** `LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE`: one workspace's deliveries in flight at once, across every replica. */
    inFlightPerWorkspace: number;
  };
  /** Public keys trusted to sign leak reports, by identifier; empty: every report is refused. */
  secretScanningKeys: ReadonlyMap<string, KeyObject>;
  /** The clock every time-dependent decision reads (tests set their own). */
  now: () => Date;
  /** Where email goes: an SMTP server, or (unset) the server log. */
  smtpUrl: string | undefined;
  emailFrom: string;
  verifyResendIntervalMs: number;
  /** Sudo mode's window: how long after proving who they are a person may do what is dangerous. */
  sudoWindowMs: number;
  rateLimits: RateLimitConfig;
  /**
   * The proxies in front of lfk (`LFK_TRUST_PROXY`: addresses, CIDRs, `loopback`…): a request
   * from one of them is from the address it wrote last into `X-Forwarded-For`, and so on along the
   * chain to the first address that is not a proxy. Empty: the client is the socket's peer.
   */
  trustProxy: string[];
  /** Verified keys kept in memory: entries of each kind (valid, refused) and how long; 0 turns it off. */
  apiKeyCache: { maxEntries: number; ttlMs: number };
  /** Forms kept in memory for their submissions: how many and how long; 0 turns it off. */
  formCache: { maxEntries: number; ttlMs: number };
  timeouts: Timeouts;
  /** What object storage and clamd may take, derived from `timeouts.idleMs`. */
  dependencyDeadlines: DependencyDeadlines;
  /**
   * Where the built dashboard is (`apps/web`'s build, which `npm start` keeps current); served at
   * `/` when it holds a build. Undefined serves the API alone.
   */
  dashboardDir: string | undefined;
}

/** How long a client may take. */
export interface Timeouts {
  /** Until a request's headers have arrived (a new connection counts from its opening); then 408. */
  headersMs: number;
  /** Until a whole request, body included, has arrived; then 408. */
  requestMs: number;
  /** An idle keep-alive connection between two requests is closed after this. */
  keepAliveMs: number;
  /** A connection on which no byte moves either way is closed after this, whatever it is doing. */
  idleMs: number;
}

/**
 * Longer than the 60 s idle timeout of the usual load balancers (AWS ALB, nginx upstream keepalive),
 * so the balancer, never lfk, closes an idle connection first: otherwise a request sent on a
 * connection lfk is closing at that instant fails with a 502.
 */
const KEEP_ALIVE_MS = 65_000;

/** Names `proxy-addr` (Fastify's) takes for whole ranges: 127.0.0.0/8 and ::1, 169.254/16 and fe80::/10, private ranges and fc00::/7. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `LFK_TRUST_PROXY`: the proxies' addresses, CIDRs or range names, comma-separated. `true` and hop
 * counts are refused: `true` lets a client behind an appending proxy choose its own address with
 * `X-Forwarded-For`, and a count cannot tell the proxy from a client that reaches lfk directly
 * (Fastify treats one as trusting nothing). Only what names the proxy is safe.
 */
function parseTrustProxy(value: string | undefined, ctx: z.RefinementCtx): string[] {
  if (value === undefined || value === 'false') return [];
  const entries = value.split(',').map((part) => part.trim()).filter(Boolean);
  if (value === 'true' || /^\d+$/.test(value)) {
    ctx.addIssue({
      code: 'custom',
      message:
        `${value === 'true' ? 'true would trust any address a client writes into X-Forwarded-For' : 'A hop count cannot tell your proxy from a client that reaches lfk directly'}: ` +
        "give your proxies' addresses or CIDRs instead (comma-separated), or loopback, linklocal, uniquelocal for those ranges. " +
        'For a proxy on the same machine: LFK_TRUST_PROXY=loopback.',
    });
    return [];
  }
  for (const entry of entries) {
    const valid = PROXY_RANGE_NAMES.has(entry) || ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry);
    if (!valid) ctx.addIssue({ code: 'custom', message: `${entry} is not an IP address, a CIDR (10.0.0.0/8) or one of loopback, linklocal, uniquelocal.` });
  }
  return entries;
}

/** `LFK_CLAMD_URL` in a form the scanner understands (`parseClamdUrl` says which). */
function validClamdUrl(value: string | undefined, ctx: z.RefinementCtx): void {
  if (value === undefined) return;
  try {
    parseClamdUrl(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
}

/** The dashboard's build in this repository, where `npm start` puts it. */
const REPOSITORY_DASHBOARD_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

export class ConfigError extends Error {}

/**
 * The storage `objectStorageFrom` opens: the bucket, or `<dataDir>/files` (a temporary folder of the
 * process with `memory://`).
 */
export function objectStorageOf(config: Pick<Config, 'objectStorage' | 'dataDir' | 'dependencyDeadlines'>): ObjectStorageSettings {
  if (config.objectStorage.kind === 's3') return { ...config.objectStorage, deadlines: config.dependencyDeadlines };
  return { kind: 'directory', root: config.dataDir.startsWith('memory://') ? null : join(config.dataDir, 'files') };
}

/** Addresses of this machine that its browser reaches as `localhost`. */
const LOCAL_HOSTS = new Set(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost']);

/** Parses the environment once, at start; nothing else reads `process.env`. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // A loopback or unspecified address is named `localhost`: browsers refuse an IP address as a
  // passkey's RP ID (the public URL's host), so the README's first run could make none.
  const displayHost = LOCAL_HOSTS.has(e.HOST) ? 'localhost' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.LFK_DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databaseTimeouts: { connectMs: e.LFK_DATABASE_CONNECT_TIMEOUT * 1000, statementMs: e.LFK_DATABASE_STATEMENT_TIMEOUT * 1000 },
    publicUrl: (e.LFK_PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/+$/, ''),
    publicUrlIsSet: e.LFK_PUBLIC_URL !== undefined,
    allowSignup: e.LFK_ALLOW_SIGNUP,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LFK_LOG_FORMAT,
    metrics: e.LFK_METRICS === 'false' ? { enabled: false } : { enabled: true, port: e.LFK_METRICS === 'true' ? null : e.LFK_METRICS },
    lastUsedFlushMs: BACKGROUND_DEFAULTS.keyUses.flushMs,
    keyLifecycleSweepMs: BACKGROUND_DEFAULTS.keyLifecycle.everyMs,
    secretScanningKeys: e.LFK_SECRET_SCANNING_KEYS,
    secretKey: e.LFK_SECRET_KEY,
    webhooks: { allowPrivate: e.LFK_WEBHOOK_ALLOW_PRIVATE, inFlightPerWorkspace: e.LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE },
    captcha: {
      verifyUrls: { turnstile: e.LFK_TURNSTILE_VERIFY_URL, hcaptcha: e.LFK_HCAPTCHA_VERIFY_URL, recaptcha: e.LFK_RECAPTCHA_VERIFY_URL },
      timeoutMs: e.LFK_CAPTCHA_TIMEOUT * 1000,
    },
    retentionSweepMs: e.LFK_RETENTION_SWEEP_INTERVAL * 1000,
    exportsPerPerson: e.LFK_EXPORTS_PER_PERSON,
    longPolls: { perPerson: e.LFK_LONG_POLLS_PER_PERSON, perWorkspace: e.LFK_LONG_POLLS_PER_WORKSPACE },
    fileLimits: {
      maxFileSize: e.LFK_MAX_FILE_SIZE,
      maxSubmissionSize: e.LFK_MAX_SUBMISSION_SIZE,
      linkTtlSeconds: e.LFK_FILE_LINK_TTL,
      uploadSweepMs: e.LFK_UPLOAD_SWEEP_INTERVAL * 1000,
    },
    objectStorage:
      e.LFK_S3_BUCKET === undefined
        ? { kind: 'directory' }
        : {
            kind: 's3',
            bucket: e.LFK_S3_BUCKET,
            region: e.LFK_S3_REGION,
            endpoint: e.LFK_S3_ENDPOINT,
            forcePathStyle: e.LFK_S3_FORCE_PATH_STYLE,
            credentials:
              e.LFK_S3_ACCESS_KEY_ID !== undefined && e.LFK_S3_SECRET_ACCESS_KEY !== undefined
                ? { accessKeyId: e.LFK_S3_ACCESS_KEY_ID, secretAccessKey: e.LFK_S3_SECRET_ACCESS_KEY }
                : undefined,
          },
    clamdUrl: e.LFK_CLAMD_URL,
    now: () => new Date(),
    smtpUrl: e.SMTP_URL,
    emailFrom: e.LFK_EMAIL_FROM,
    verifyResendIntervalMs: e.LFK_VERIFY_RESEND_INTERVAL * 1000,
    sudoWindowMs: e.LFK_SUDO_WINDOW * 1000,
    rateLimits: Object.fromEntries(
      RATE_LIMIT_NAMES.map((name) => [name, (e as Record<string, unknown>)[RATE_LIMIT_ENV[name]]]),
    ) as RateLimitConfig,
    trustProxy: e.LFK_TRUST_PROXY,
    apiKeyCache: { maxEntries: e.LFK_KEY_CACHE_SIZE, ttlMs: e.LFK_KEY_CACHE_TTL * 1000 },
    formCache: { maxEntries: e.LFK_FORM_CACHE_SIZE, ttlMs: e.LFK_FORM_CACHE_TTL * 1000 },
    timeouts: {
      headersMs: e.LFK_HEADERS_TIMEOUT * 1000,
      requestMs: e.LFK_REQUEST_TIMEOUT * 1000,
      keepAliveMs: KEEP_ALIVE_MS,
      idleMs: e.LFK_IDLE_TIMEOUT * 1000,
    },
    dependencyDeadlines: dependencyDeadlines(e.LFK_IDLE_TIMEOUT * 1000),
    dashboardDir: e.LFK_DASHBOARD_DIR ?? REPOSITORY_DASHBOARD_DIR,
  };
}
