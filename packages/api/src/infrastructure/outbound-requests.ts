import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { Agent, buildConnector } from 'undici';
import { isPublicAddress, literalAddress } from './public-addresses.ts';

/** What one POST to a receiver came to, as the delivery log shows it. */
export interface AttemptResult {
  /** The receiver's HTTP status; absent when it never answered. */
  statusCode?: number;
  /** Why no answer came (a timeout, a refused address, a reset connection, a bad certificate). */
  error?: string;
  durationMs: number;
  /** The first KiB of the answer's body. */
  excerpt?: string;
  /** What a `429` or `503` answer's `Retry-After` asked for, in milliseconds from now (seconds, or an HTTP date). */
  retryAfterMs?: number;
  /**
   * For the server's own log only, never answered or stored: what lfk's network said of a host it
   * would not or could not send to (`ENOTFOUND`, a private address), which `error` does not tell.
   */
  cause?: string;
}

export interface OutboundOptions {
  /** `LFK_WEBHOOK_ALLOW_PRIVATE`: private addresses and `http://` allowed (self-hosting, tests). */
  allowPrivate: boolean;
  /** The whole attempt, from connecting to the end of the excerpt. */
  timeoutMs?: number;
  /** The resolver: the system's (`dns.lookup`, as every Node program resolves) unless a test gives its own. */
  lookup?: typeof dnsLookup;
}

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a name may take to resolve, at most (and at most half the attempt): then it is a name with no public address. */
export const LOOKUP_TIMEOUT_MS = 5_000;
export const EXCERPT_BYTES = 1024;
const USER_AGENT = 'lfk-webhooks/1 (+https://www.standardwebhooks.com)';

/**
 * The one answer, to keys and members alike, for every host lfk must not or cannot send to: a name
 * that does not exist, does not resolve in time, or resolves only to private addresses, and a
 * private address. Told apart, they would let whoever can point an endpoint somewhere map the
 * names of lfk's own network; what tells them apart (`cause`) goes to the server's log only.
 */
export const NO_PUBLIC_ADDRESS = "not sent: no public address found for the URL's host";

class NoPublicAddress extends Error {
  readonly code = 'EADDRNOTALLOWED';
  readonly detail: string;
  constructor(detail: string) {
    super(NO_PUBLIC_ADDRESS);
    this.detail = detail;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => void;

/**
 * `lookup` that answers only public addresses, as `net.connect` calls it: nothing private is ever
 * connected to. Any failure to find one (an error of the resolver, no answer within `deadlineMs`,
 * private addresses only) is `NoPublicAddress`.
 */
function publicOnlyLookup(lookup: typeof dnsLookup, deadlineMs: number): Lookup {
  return (hostname, options, callback) => {
    let settled = false;
    const settle = (error: NoPublicAddress | null, allowed: LookupAddress[] = []) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) return callback(error, []);
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    };
    const deadline = setTimeout(() => settle(new NoPublicAddress(`no answer from the resolver within ${deadlineMs} ms`)), deadlineMs).unref();
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return settle(new NoPublicAddress(error.code ?? error.message));
      const allowed = addresses.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) return settle(new NoPublicAddress(`private addresses only: ${addresses.map((a) => a.address).join(', ')}`));
      settle(null, allowed);
    });
  };
}

/** The `NoPublicAddress` behind a failed request, however undici wrapped it. */
function noPublicAddressIn(error: unknown): NoPublicAddress | null {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    if (at instanceof NoPublicAddress) return at;
  }
  return null;
}

/** The error of a failed attempt, in a few words for the log: the code a system error has, or its message. */
function describe(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return `timeout: no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: unknown }).cause;
  if (error.message === 'fetch failed' && cause instanceof Error) return describe(cause, timeoutMs);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('UND_ERR_')) return `${code}: ${error.message}`.slice(0, 200);
  return (typeof code === 'string' ? `${code}: ${error.message}` : error.message).slice(0, 200);
}

/** Up to `limit` bytes of `body`, then the rest is dropped (the connection with it). */
async function excerptOf(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const bytes = chunk as Buffer;
      chunks.push(bytes);
      size += bytes.length;
      if (size >= limit) break;
    }
  } finally {
    body.destroy();
  }
  // Cut at a character boundary: a lone half of a character would read as U+FFFD anyway.
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks).subarray(0, limit)).replace(/\uFFFD+$/, '');
}

/**
 * lfk's requests to receivers. Safe by default: `https://` only, and the address actually
 * connected to must be public (checked at connect time, after DNS, so a name that resolves
 * differently the second time cannot point lfk inside its own network); one deadline for the
 * whole attempt; redirects are not followed; only the first KiB of an answer is read.
 */
/** Said with every refusal of a URL by its text: a self-hosted server (or a test) may lift the rule. */
const ALLOW_PRIVATE_HINT = ' (a server run for development or tests may allow it: LFK_WEBHOOK_ALLOW_PRIVATE=true).';

export class Outbound {
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  readonly #lookup: typeof dnsLookup;
  #agent: Promise<Agent> | undefined;

  constructor(options: OutboundOptions) {
    this.allowPrivate = options.allowPrivate;
    this.timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.#lookup = options.lookup ?? dnsLookup;
  }

  /** The connection pool, made by the first delivery: undici (about 100 modules) is not loaded at start. */
  #pool(): Promise<Agent> {
    this.#agent ??= import('undici').then(({ Agent, buildConnector }) => this.#makePool(Agent, buildConnector));
    return this.#agent;
  }

  #makePool(AgentOf: typeof Agent, buildConnectorOf: typeof buildConnector): Agent {
    // Shorter than the attempt, so a resolver that never answers is told as every other name with
    // no public address, not as a receiver that does not answer.
    const lookupDeadlineMs = Math.min(LOOKUP_TIMEOUT_MS, this.timeoutMs / 2);
    // The lookup is passed on to `net.connect` / `tls.connect`, which call it for a name.
    const connector = buildConnectorOf({
      timeout: this.timeoutMs,
      ...(this.allowPrivate ? {} : { lookup: publicOnlyLookup(this.#lookup, lookupDeadlineMs) as unknown as typeof dnsLookup }),
    } as buildConnector.BuildOptions);
    const allowPrivate = this.allowPrivate;
    return new AgentOf({
      // No cap per origin: endpoints of many workspaces may share a host (a Zapier, a Pipedream), and
      // one hanging endpoint must not queue the others' requests behind its sockets. What one endpoint
      // holds is capped by the claim (WEBHOOK_IN_FLIGHT_PER_ENDPOINT).
      connections: null,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      // A literal address skips the lookup above, so it is judged before connecting; and the
      // connected socket's own peer is checked too, whatever led to it.
      connect(connectOptions, callback) {
        const literal = literalAddress(connectOptions.hostname);
        if (!allowPrivate && literal !== null && !isPublicAddress(literal)) {
          return callback(new NoPublicAddress('a private address, written literally'), null);
        }
        connector(connectOptions, (error, socket) => {
          if (error || allowPrivate) return error ? callback(error, null) : callback(null, socket!);
          const peer = (socket as Socket).remoteAddress;
          if (peer === undefined || !isPublicAddress(peer)) {
            socket!.destroy();
            return callback(new NoPublicAddress(`connected to a private address: ${peer}`), null);
          }
          callback(null, socket!);
        });
      },
    });
  }

  /**
   * Why `url` cannot be an endpoint, or null, judged from its text alone: not https (unless private
   * addresses are allowed), a private address written literally, or `localhost`. A name is never
   * resolved here: what it resolves to is judged when sending (`NO_PUBLIC_ADDRESS`), so adding an
   * endpoint tells nothing of lfk's own DNS.
   */
  refusal(url: string): string | null {
    if (this.allowPrivate) return null;
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') return `Must be an https:// URL${ALLOW_PRIVATE_HINT}`;
    const host = parsed.hostname;
    const literal = literalAddress(host);
    const isPrivate = literal !== null ? !isPublicAddress(literal) : host === 'localhost' || host.endsWith('.localhost');
    return isPrivate ? `Must not be a private, loopback or link-local address${ALLOW_PRIVATE_HINT}` : null;
  }

  /**
   * POSTs `body` with `headers`; never throws: a failure is an attempt result. An `http://` URL
   * saved while private addresses were allowed is not sent to once they are not: submissions never
   * travel in clear text to a receiver the server's rules refuse.
   */
  async post(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (!this.allowPrivate && !url.startsWith('https:')) return { error: 'not sent: webhooks go to https:// URLs only', durationMs: 0 };
    try {
      const [{ request }, agent] = await Promise.all([import('undici'), this.#pool()]);
      const answer = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers },
        body,
        dispatcher: agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      let excerpt: string | undefined;
      try {
        excerpt = await excerptOf(answer.body, EXCERPT_BYTES);
      } catch {
        // The status came; an answer body that stops or stalls does not change it.
      }
      const retryAfterMs = answer.statusCode === 429 || answer.statusCode === 503 ? retryAfterOf(answer.headers['retry-after']) : undefined;
      return {
        statusCode: answer.statusCode,
        durationMs: elapsed(),
        ...(excerpt ? { excerpt } : {}),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    } catch (error) {
      // Nothing was sent, and how long finding that out took differs by the reason: not told either.
      const refused = noPublicAddressIn(error);
      if (refused) return { error: NO_PUBLIC_ADDRESS, durationMs: 0, cause: refused.detail };
      return { error: describe(error, this.timeoutMs), durationMs: elapsed() };
    }
  }

  async close(): Promise<void> {
    await (await this.#agent)?.close();
  }
}

/** An HTTP date as servers send it (RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`). */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * A `Retry-After` header as milliseconds from now (RFC 9110: a number of seconds, or an HTTP
 * date); undefined when absent or anything else (`Date.parse` alone would read `1.5` as a date).
 * A date in the past is now.
 */
export function retryAfterOf(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (!HTTP_DATE.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
