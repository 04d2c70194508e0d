import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, buildConnector, request } from 'undici';
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
}

export interface OutboundOptions {
  /** `LFK_WEBHOOK_ALLOW_PRIVATE`: private addresses and `http://` allowed (self-hosting, tests). */
  allowPrivate: boolean;
  /** The whole attempt, from connecting to the end of the excerpt. */
  timeoutMs?: number;

}

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const EXCERPT_BYTES = 1024;
const USER_AGENT = 'lfk-webhooks/1 (+https://www.standardwebhooks.com)';

class AddressNotAllowed extends Error {
  readonly code = 'EADDRNOTALLOWED';
}

/** Says which name was refused, never what it resolved to: lfk's view of its own network is not told. */
const notAllowed = (host: string) => new AddressNotAllowed(`${host} is not a public address: lfk sends webhooks to public addresses only`);

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** `dns.lookup` that answers only public addresses, as `net.connect` calls it: nothing private is ever connected to. */
function publicOnlyLookup(hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const allowed = addresses.filter((a) => isPublicAddress(a.address));
    if (allowed.length === 0) return callback(notAllowed(hostname), []);
    if (options.all) return callback(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
}

/** The error of a failed attempt, in a few words for the log: the code a system error has, or its message. */
function describe(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return `timeout: no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: unknown }).cause;
  if (error.message === 'fetch failed' && cause instanceof Error) return describe(cause, timeoutMs);
  const code = (error as { code?: unknown }).code;
  if (error instanceof AddressNotAllowed) return error.message;
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
export class Outbound {
  readonly allowPrivate: boolean;
  readonly timeoutMs: number;
  readonly #agent: Agent;

  constructor(options: OutboundOptions) {
    this.allowPrivate = options.allowPrivate;
    this.timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    // The lookup is passed on to `net.connect` / `tls.connect`, which call it for a name.
    const connector = buildConnector({
      timeout: this.timeoutMs,
      ...(this.allowPrivate ? {} : { lookup: publicOnlyLookup as unknown as typeof dnsLookup }),
    } as buildConnector.BuildOptions);
    const allowPrivate = this.allowPrivate;
    this.#agent = new Agent({
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
          return callback(notAllowed(connectOptions.hostname), null);
        }
        connector(connectOptions, (error, socket) => {
          if (error || allowPrivate) return error ? callback(error, null) : callback(null, socket!);
          const peer = (socket as Socket).remoteAddress;
          if (peer === undefined || !isPublicAddress(peer)) {
            socket!.destroy();
            return callback(notAllowed(connectOptions.hostname), null);
          }
          callback(null, socket!);
        });
      },
    });
  }

  /**
   * Why `url` cannot be an endpoint, or null: not https (unless private addresses are allowed), a
   * private address written literally, or a name that resolves to private addresses only. A name
   * that does not resolve yet is accepted: its deliveries fail, and are logged, until it does.
   */
  async refusal(url: string): Promise<string | null> {
    if (this.allowPrivate) return null;
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') return 'Must be an https:// URL.';
    const host = parsed.hostname;
    const literal = literalAddress(host);
    if (literal !== null) return isPublicAddress(literal) ? null : 'Must not be a private, loopback or link-local address.';
    if (host === 'localhost' || host.endsWith('.localhost')) return 'Must not be a private, loopback or link-local address.';
    const addresses = await new Promise<LookupAddress[]>((resolve) => {
      dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found));
    });
    if (addresses.length > 0 && !addresses.some((a) => isPublicAddress(a.address))) {
      return 'Must not resolve to a private, loopback or link-local address.';
    }
    return null;
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
      const answer = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers },
        body,
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      let excerpt: string | undefined;
      try {
        excerpt = await excerptOf(answer.body, EXCERPT_BYTES);
      } catch {
        // The status came; an answer body that stops or stalls does not change it.
      }
      return { statusCode: answer.statusCode, durationMs: elapsed(), ...(excerpt ? { excerpt } : {}) };
    } catch (error) {
      return { error: describe(error, this.timeoutMs), durationMs: elapsed() };
    }
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}
