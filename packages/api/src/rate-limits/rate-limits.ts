import { type Database, RateLimitBucket, type RateLimitBucketRepository } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { ApiError } from '../errors.ts';
import { type Rate, TokenBuckets } from './token-buckets.ts';

/**
 * The limits, each of one kind. The security limits (guessing passwords, guessing keys, mass
 * sign-up) are `shared`: counted in the database, so N replicas hold one limit, not N; they are
 * only counted for requests that are themselves slow or refused, so a valid request never writes
 * for them. The abuse throttles are per `process`, in memory: cheap, and a replica's share of
 * traffic is enough.
 */
const RATE_LIMIT_KINDS = {
  /** Anonymous `POST /v1/forms`, per IP. */
  anonymous_forms: 'process',
  /** Sign-up and login attempts, per IP. */
  login: 'shared',
  /** Failed logins, per account: the email given, whether or not it has an account. */
  login_failures: 'shared',
  /** Requests whose API key was refused, per IP. */
  key_failures: 'shared',
  /** Taken browser (origin-checked) submissions, per form and client address. */
  browser_submissions: 'process',
  /** Drafts started and saved by pages, per form and client address. */
  draft_saves: 'process',
  /** Password reset requests, per IP. */
  password_resets: 'shared',
  /** Password reset emails, per address, whether or not it has an account: past it, a request sends nothing. */
  password_reset_emails: 'shared',
  /** Invitation emails (sent and resent), per person sending them. */
  invitations: 'shared',
  /** Device sign-in codes that name no live request, per IP and per session: RFC 8628 §5.1. */
  device_code_guesses: 'shared',
  /** Auto-replies, per recipient address, from every form of every workspace: past it, a reply is skipped. */
  auto_reply_recipients: 'shared',
  /** Auto-replies, per form: past it, a reply is skipped. */
  auto_reply_forms: 'shared',
  /** Auto-replies, per workspace, from all of its forms: past it, a reply is skipped. */
  auto_reply_workspaces: 'shared',
  /** Auto-replies, per account that set them, from every form of every workspace: past it, a reply is skipped. */
  auto_reply_accounts: 'shared',
  /**
   * Email to an address someone else named (`EMAIL_KINDS`' `named`: a notify address's link, an
   * invitation, an auto-reply, an account's confirmation link), per address, whatever queued it.
   */
  unasked_emails: 'shared',
} as const satisfies Record<string, 'shared' | 'process'>;

export type RateLimitName = keyof typeof RATE_LIMIT_KINDS;
export const RATE_LIMIT_NAMES = Object.keys(RATE_LIMIT_KINDS) as RateLimitName[];

const isShared = (name: RateLimitName) => RATE_LIMIT_KINDS[name] === 'shared';

/** `null` turns a limit off. */
export type RateLimitConfig = Record<RateLimitName, Rate | null>;

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  anonymous_forms: { capacity: 10, windowMs: 3600_000 },
  login: { capacity: 10, windowMs: 60_000 },
  login_failures: { capacity: 10, windowMs: 15 * 60_000 },
  key_failures: { capacity: 20, windowMs: 60_000 },
  browser_submissions: { capacity: 60, windowMs: 60_000 },
  // A page saves a few seconds after typing stops: one visitor makes a few a minute.
  draft_saves: { capacity: 30, windowMs: 60_000 },
  password_resets: { capacity: 10, windowMs: 3600_000 },
  password_reset_emails: { capacity: 3, windowMs: 3600_000 },
  invitations: { capacity: 30, windowMs: 3600_000 },
  device_code_guesses: { capacity: 10, windowMs: 15 * 60_000 },
  auto_reply_recipients: { capacity: 5, windowMs: 86_400_000 },
  auto_reply_forms: { capacity: 100, windowMs: 3600_000 },
  auto_reply_workspaces: { capacity: 300, windowMs: 3600_000 },
  auto_reply_accounts: { capacity: 500, windowMs: 3600_000 },
  unasked_emails: { capacity: 10, windowMs: 86_400_000 },
};

function rateLimited(waitMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError('rate_limited', {
    message: `Too many requests. Retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    headers: { 'retry-after': String(seconds) },
  });
}

/** Subjects this process has heard are over a shared limit, and until when (bounded, oldest out). */
class HeldSubjects {
  readonly #until = new Map<string, number>();
  readonly #max: number;

  constructor(max = 100_000) {
    this.#max = max;
  }

  hold(key: string, untilMs: number): void {
    this.#until.delete(key);
    if (this.#until.size >= this.#max) this.#until.delete(this.#until.keys().next().value!);
    this.#until.set(key, untilMs);
  }

  waitFor(key: string, nowMs: number): number {
    const until = this.#until.get(key);
    if (until === undefined) return 0;
    if (until > nowMs) return until - nowMs;
    this.#until.delete(key);
    return 0;
  }
}

export class RateLimits {
  readonly #config: RateLimitConfig;
  readonly #local: Partial<Record<RateLimitName, TokenBuckets>> = {};
  readonly #db: Pick<Database, 'fork'>;
  readonly #held = new HeldSubjects();

  /**
   * A fresh EntityManager per call: each count is a statement of its own, outside any request's
   * transaction; or `within`'s, to count in that transaction (kept only if it commits). A count
   * made while a transaction is open must be made in it: the embedded database has one connection.
   */
  #shared(within?: EntityManager): RateLimitBucketRepository {
    return (within ?? this.#db.fork()).getRepository(RateLimitBucket);
  }

  constructor(config: RateLimitConfig, db: Pick<Database, 'fork'>) {
    this.#config = config;
    this.#db = db;
    for (const name of RATE_LIMIT_NAMES) {
      const rate = config[name];
      if (rate && !isShared(name)) this.#local[name] = new TokenBuckets(rate);
    }
  }

  /** Counts one request of `subject`; throws `rate_limited` (with `Retry-After`) when over. */
  async consume(name: RateLimitName, subject: string): Promise<void> {
    const wait = await this.#take(name, subject);
    if (wait > 0) throw rateLimited(wait);
  }

  /** Counts one of `subject`'s allowance: false, counting nothing, when it is spent. `within`: in that transaction. */
  async allows(name: RateLimitName, subject: string, within?: EntityManager): Promise<boolean> {
    return (await this.#take(name, subject, within)) === 0;
  }

  /**
   * Counts one request that went wrong (a refused key), so the next ones can be held back.
   * Answers the `rate_limited` error when this one was already over the limit.
   */
  async record(name: RateLimitName, subject: string): Promise<ApiError | null> {
    const wait = await this.#take(name, subject);
    return wait > 0 ? rateLimited(wait) : null;
  }

  /**
   * What `record` costs and answers, counting nothing: the same statement on `subject`'s bucket, and
   * `rate_limited` when it is over. For a refusal that must not be told from a counted one by its
   * cost (a known key refused, beside a guessed one).
   */
  async recordNothing(name: RateLimitName, subject: string): Promise<ApiError | null> {
    const wait = await this.#take(name, subject, undefined, 0);
    return wait > 0 ? rateLimited(wait) : null;
  }

  /** The `rate_limited` error if `subject` is over the limit now, asking the database; counts nothing. */
  async check(name: RateLimitName, subject: string, within?: EntityManager): Promise<ApiError | null> {
    const rate = this.#config[name];
    if (!rate) return null;
    const wait = isShared(name) ? await this.#shared(within).wait(name, subject, rate) : (this.#local[name]?.waitFor(subject) ?? 0);
    return wait > 0 ? rateLimited(wait) : null;
  }

  /**
   * The `rate_limited` error if this process already knows `subject` is over the limit, without
   * any I/O: for checks on the path of every request, such as a bearer key's.
   */
  heldHere(name: RateLimitName, subject: string): ApiError | null {
    if (!this.#config[name]) return null;
    const wait = isShared(name) ? this.#held.waitFor(`${name}\u0000${subject}`, Date.now()) : (this.#local[name]?.waitFor(subject) ?? 0);
    return wait > 0 ? rateLimited(wait) : null;
  }

  /**
   * A guess at a secret (a password, a code): counted against `name` before `check` runs, so
   * guesses sent at once cannot all slip through, and given back when `check` finds it right
   * (answers anything but null or false, which it passes on).
   */
  async guess<T>(name: RateLimitName, subject: string, check: () => Promise<T | null | false>): Promise<T | null | false> {
    await this.consume(name, subject);
    const right = await check();
    if (right !== null && right !== false) await this.giveBack(name, subject);
    return right;
  }

  /** Undoes one count of `consume` or `record` on a shared limit (a login that turned out right). */
  async giveBack(name: RateLimitName, subject: string): Promise<void> {
    const rate = this.#config[name];
    if (rate && isShared(name)) await this.#shared().giveBack(name, subject, rate);
  }

  /** Forgets the shared limits' subjects whose buckets have refilled. */
  sweep(): Promise<number> {
    return this.#shared().sweep();
  }

  /** Counts `cost` (0: the same statement, counting nothing) of `subject`'s allowance: the wait past it, 0 when allowed. */
  async #take(name: RateLimitName, subject: string, within?: EntityManager, cost: 0 | 1 = 1): Promise<number> {
    const rate = this.#config[name];
    if (!rate) return 0;
    if (!isShared(name)) return (cost === 0 ? this.#local[name]?.waitFor(subject) : this.#local[name]?.take(subject)) ?? 0;
    const { counted, nextInMs } = await this.#shared(within).take(name, subject, rate, Date.now(), cost);
    // Remembered here once the budget is spent, so heldHere() needs no query to hold it back.
    if (nextInMs > 0) this.#held.hold(`${name}\u0000${subject}`, Date.now() + nextInMs);
    return counted ? 0 : nextInMs;
  }
}
