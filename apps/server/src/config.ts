import { type ApiSettings, API_SETTINGS, type ObjectStorageSettings, settingsSchema, settingsSlice, variable, wholeNumber } from '@lfk/api';
import { DATABASE_TIMEOUTS, longestDatabaseWait } from '@lfk/db';
import ipaddr from 'ipaddr.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_DATA_DIR } from './data-dir.ts';

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
  `${what} must be shorter than LFK_IDLE_TIMEOUT (60 s unless set): ` +
  'a request waiting on the dependency would otherwise have its connection cut first, and its client a reset instead of a 503.';

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
  const entries = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (value === 'true' || /^\d+$/.test(value)) {
    ctx.addIssue({
      code: 'custom',
      message:
        `${
          value === 'true'
            ? 'true would trust any address a client writes into X-Forwarded-For'
            : 'A hop count cannot tell your proxy from a client that reaches lfk directly'
        }: ` +
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

/** The dashboard's build in this repository, where `npm start` puts it. */
const REPOSITORY_DASHBOARD_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The browser kit's build in this repository (`@lfk/browser`), made where `npm start` makes the dashboard's. */
const REPOSITORY_KIT_DIR = fileURLToPath(new URL('../../../packages/browser/dist', import.meta.url));

/** What the HTTP server and its process read: where it keeps data, its database, its log, its timeouts. */
const serverSettings = settingsSlice({
  env: {
    LFK_DATA_DIR: variable(z.string().default(DEFAULT_DATA_DIR)),
    DATABASE_URL: variable(z.url({ protocol: /^postgres(ql)?$/, error: 'Must be a postgres:// URL.' }).optional()),
    LOG_LEVEL: variable(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
    LFK_LOG_FORMAT: variable(z.enum(['auto', 'json', 'pretty']).default('auto')),
    LFK_METRICS: variable(
      z
        .union(
          [
            z.enum(['true', 'false']),
            z
              .string()
              .regex(/^\d{1,5}$/)
              .transform(Number)
              .pipe(z.number().int().min(1).max(65535)),
          ],
          {
            error: 'Must be true, false, or a port number to serve /metrics on by itself.',
          },
        )
        .default('false'),
    ),
    LFK_TRUST_PROXY: variable(z.string().max(1000).optional().transform(parseTrustProxy)),
    LFK_HEADERS_TIMEOUT: wholeNumber(1, 600, 10),
    LFK_REQUEST_TIMEOUT: wholeNumber(1, 3600, 30),
    LFK_IDLE_TIMEOUT: wholeNumber(2, 3600, IDLE_MS / 1000),
    LFK_DATABASE_CONNECT_TIMEOUT: wholeNumber(1, 60, DATABASE_TIMEOUTS.connectMs / 1000),
    LFK_DATABASE_STATEMENT_TIMEOUT: wholeNumber(1, 3600, DATABASE_TIMEOUTS.statementMs / 1000),
    LFK_DASHBOARD_DIR: variable(z.string().optional()),
  },
  check: (env, ctx) => {
    const idleMs = env.LFK_IDLE_TIMEOUT * 1000;
    const databaseWait = longestDatabaseWait({ connectMs: env.LFK_DATABASE_CONNECT_TIMEOUT * 1000, statementMs: env.LFK_DATABASE_STATEMENT_TIMEOUT * 1000 });
    if (databaseWait >= idleMs) {
      ctx.addIssue({
        code: 'custom',
        path: ['LFK_DATABASE_STATEMENT_TIMEOUT'],
        message: OUTBOUND_BEFORE_INBOUND('LFK_DATABASE_CONNECT_TIMEOUT and LFK_DATABASE_STATEMENT_TIMEOUT together (and a second of grace)'),
      });
    }
    if ((env.LFK_CAPTCHA_TIMEOUT as number) >= env.LFK_IDLE_TIMEOUT) {
      ctx.addIssue({ code: 'custom', path: ['LFK_CAPTCHA_TIMEOUT'], message: OUTBOUND_BEFORE_INBOUND('LFK_CAPTCHA_TIMEOUT') });
    }
    if (env.LFK_HEADERS_TIMEOUT > env.LFK_REQUEST_TIMEOUT) {
      ctx.addIssue({
        code: 'custom',
        path: ['LFK_HEADERS_TIMEOUT'],
        message: 'Must not be longer than LFK_REQUEST_TIMEOUT: the headers are part of the request.',
      });
    }
    if (env.DATABASE_URL !== undefined && env.LFK_SECRET_KEY === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['LFK_SECRET_KEY'],
        message:
          'Required with DATABASE_URL: every replica seals and opens stored secrets (webhook signing secrets) with the same key. ' +
          'Make one with `openssl rand -hex 32` and give it to every replica.',
      });
    }
  },
  read: (e) => ({
    /** PGlite data directory, or `memory://`; unused when `databaseUrl` is set. */
    dataDir: e.LFK_DATA_DIR,
    databaseUrl: e.DATABASE_URL as string | undefined,
    /** How long PostgreSQL may take to connect and to run a statement. */
    databaseTimeouts: { connectMs: e.LFK_DATABASE_CONNECT_TIMEOUT * 1000, statementMs: e.LFK_DATABASE_STATEMENT_TIMEOUT * 1000 },
    logLevel: e.LOG_LEVEL as string,
    /** `auto`: readable lines when standard output is a terminal, JSON lines otherwise. */
    logFormat: e.LFK_LOG_FORMAT,
    /** `GET /metrics` (Prometheus text): off, on the API's own port, or on a port of its own. */
    metrics: (e.LFK_METRICS === 'false' ? { enabled: false } : { enabled: true, port: e.LFK_METRICS === 'true' ? null : e.LFK_METRICS }) as
      | { enabled: false }
      | { enabled: true; port: number | null },
    /**
     * The proxies in front of lfk: a request from one of them is from the address it wrote last
     * into `X-Forwarded-For`, and so on along the chain to the first address that is not a proxy.
     * Empty: the client is the socket's peer.
     */
    trustProxy: e.LFK_TRUST_PROXY,
    timeouts: {
      headersMs: e.LFK_HEADERS_TIMEOUT * 1000,
      requestMs: e.LFK_REQUEST_TIMEOUT * 1000,
      keepAliveMs: KEEP_ALIVE_MS,
      idleMs: e.LFK_IDLE_TIMEOUT * 1000,
    } as Timeouts,
    /** What object storage and clamd may take, derived from the idle timeout. */
    dependencyDeadlines: dependencyDeadlines(e.LFK_IDLE_TIMEOUT * 1000),
    /**
     * Where the built dashboard is (`apps/web`'s build, which `npm start` keeps current); served at
     * `/` when it holds a build. Undefined serves the API alone.
     */
    dashboardDir: (e.LFK_DASHBOARD_DIR ?? REPOSITORY_DASHBOARD_DIR) as string | undefined,
    /** Where the built browser kit is (`packages/browser/dist`), served at `/v1/kit/`; undefined or no build there: those answer 404. */
    kitDir: REPOSITORY_KIT_DIR as string | undefined,
  }),
});

/** The whole environment: the API's variables (each declared by the feature that reads it) and the server's. */
const configSchema = settingsSchema([...API_SETTINGS, serverSettings]) as unknown as z.ZodType<ApiSettings & ReturnType<typeof serverSettings.read>>;

/** The server's settings: everything the environment says, read once at start (tests change some). */
export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {}

/**
 * The storage `objectStorageFrom` opens: the bucket, or `<dataDir>/files` (a temporary folder of the
 * process with `memory://`).
 */
export function objectStorageOf(config: Pick<Config, 'objectStorage' | 'dataDir' | 'dependencyDeadlines'>): ObjectStorageSettings {
  if (config.objectStorage.kind === 's3') return { ...config.objectStorage, deadlines: config.dependencyDeadlines };
  return { kind: 'directory', root: config.dataDir.startsWith('memory://') ? null : join(config.dataDir, 'files') };
}

/** Parses the environment once, at start; nothing else reads `process.env`. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
