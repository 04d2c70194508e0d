import type { Database, FormReading } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { type Authentication, authenticate, type CredentialsOnRequest } from './credentials/authenticate.ts';
import type { Metrics } from './metrics.ts';
import type { RateLimits } from './rate-limits/rate-limits.ts';
import type { SecretBox } from './credentials/secret-box.ts';
import type { BackgroundWork } from './infrastructure/background-work.ts';
// Types only: each feature names the services it adds; its feature.ts builds them.
import type { FormsServices } from './features/forms/services.ts';
import type { InboxServices } from './features/inbox/services.ts';
import type { KeysServices } from './features/keys/services.ts';
import type { SecretScanningServices } from './features/secret-scanning/services.ts';
import type { FilesServices, UploadSource } from './features/files/services.ts';
import type { WebhooksServices } from './features/webhooks/services.ts';
import type { AuthServices } from './features/auth/services.ts';
import type { EmailVerificationServices } from './features/email-verification/services.ts';

/** What every request shares: built once at start by the server. The kernel's members, and each feature's. */
export interface Services
  extends AuthServices,
    EmailVerificationServices,
    KeysServices,
    FormsServices,
    InboxServices,
    SecretScanningServices,
    FilesServices,
    WebhooksServices {
  db: Database;
  rateLimits: RateLimits;
  /** Where people reach this server: the base of links in emails. */
  publicUrl: string;
  /** Sudo mode: how long after proving who they are a person may do what is dangerous (`LFK_SUDO_WINDOW`). */
  sudoWindowMs: number;
  /** Tells the email sender that the outbox has new mail (it also polls). */
  wakeMailer(): void;
  /** Tells the webhook worker that deliveries are due (it also polls). */
  wakeWebhooks(): void;
  /** Seals and opens the secrets lfk must use again (webhook signing secrets), under `LFK_SECRET_KEY`. */
  secretBox: SecretBox;
  /** Work a request starts and does not wait for (a password reset's lookup and email); shutdown waits for it. */
  background: BackgroundWork;
  /** The time, for every decision that depends on it (key expiry, rolls, usage days); tests turn it. */
  now(): Date;
  /** What is counted for `/metrics` (key checks); `NO_METRICS` when they are off. */
  metrics: Metrics;
}

/** How a procedure sets or clears the session cookie, whichever transport carried the call. */
export interface SessionCookieWriter {
  set(token: string, expiresAt: Date): void;
  clear(): void;
}

/** What a procedure may add to its response besides the body. */
export interface ResponseHeaders {
  set(name: string, value: string): void;
}

/**
 * What a browser is told besides the body, decided by the procedure and said by the transport
 * that answers browsers (the submission route); other transports have no browser to tell.
 */
export interface BrowserAnswer {
  /** CORS: `origin` may read this answer, errors included (a page shows a 422's details). */
  allowOrigin(origin: string): void;
  /** Where an HTML form post sends the person next, instead of the thank-you page. */
  redirectTo(location: string): void;
  /** The form was found: a refusal's page (or redirect) is made from it, if the post is refused. */
  formFound(form: FormReading): void;
}

const NO_BROWSER: BrowserAnswer = { allowOrigin() {}, redirectTo() {}, formFound() {} };

/** What a request's context takes besides its checked credentials (which carry the rest: its address, origin, User-Agent). */
export interface RequestFacts {
  requestId: string;
  /** The `Idempotency-Key` header, when sent. */
  idempotencyKey: string | undefined;
  /** See `Context.clientGone`; a call without a connection has no client to lose. */
  clientGone?: () => AbortSignal;
}

/** Never aborted: what a call without a connection is given. */
const STAYS = new AbortController().signal;

/** The inner context: no HTTP objects, so tests and server-side callers can build one too. */
export interface Context {
  em: EntityManager;
  services: Services;
  auth: Authentication;
  requestId: string;
  /** The client's address (behind a trusted proxy, the forwarded one). */
  ip: string;
  /** The request's `User-Agent`, as a new session keeps it. */
  userAgent: string | undefined;
  /** The request's `Origin` header: browser submissions are judged by it. */
  origin: string | undefined;
  idempotencyKey: string | undefined;
  cookies: SessionCookieWriter;
  headers: ResponseHeaders;
  browser: BrowserAnswer;
  /** A `multipart/form-data` submission's body, read only once the procedure admits it; null for every other request. */
  upload: UploadSource | null;
  /**
   * Aborted when the client ends its side of the connection before the answer is written (made on
   * first use): a long poll then answers at once, and gives its place back. Never, without HTTP.
   */
  clientGone(): AbortSignal;
}

/**
 * A request's credentials, checked: the first step of its context. A refused bearer is answered
 * from this alone (`refusal`), before the rest of the context is built.
 */
export interface CheckedCredentials {
  auth: Authentication;
  /** What was checked: the context takes the caller's address, origin and User-Agent from here. */
  credentials: CredentialsOnRequest;
  /** The request's EntityManager, forked on first use: a key verified from the cache never asks for one. */
  em: () => EntityManager;
}

export async function checkCredentials(services: Services, request: CredentialsOnRequest): Promise<CheckedCredentials> {
  let em: EntityManager | undefined;
  const lazyEm = () => {
    em ??= services.db.fork();
    return em;
  };
  return { auth: await authenticate(lazyEm, request, services, services.now()), credentials: request, em: lazyEm };
}

/**
 * The context, once the credentials are checked. A plain object (its EntityManager forked now):
 * procedures' middlewares copy it at every step, and an object with a getter is copied slowly.
 */
export function contextOf(
  services: Services,
  request: RequestFacts,
  checked: CheckedCredentials,
  cookies: SessionCookieWriter,
  headers: ResponseHeaders,
  browser: BrowserAnswer = NO_BROWSER,
  upload: UploadSource | null = null,
): Context {
  return {
    em: checked.em(),
    services,
    auth: checked.auth,
    requestId: request.requestId,
    ip: checked.credentials.ip,
    userAgent: checked.credentials.userAgent,
    origin: checked.credentials.origin,
    idempotencyKey: request.idempotencyKey,
    cookies,
    headers,
    browser,
    upload,
    clientGone: request.clientGone ?? (() => STAYS),
  };
}

const NO_COOKIES: SessionCookieWriter = { set() {}, clear() {} };
const NO_HEADERS: ResponseHeaders = { set() {} };

/** Who calls a procedure without a request: a bearer (key or session token) or nobody, and from where. */
export interface CallerFacts {
  bearer?: string | undefined;
  ip?: string | undefined;
  requestId?: string | undefined;
  idempotencyKey?: string | undefined;
}

/**
 * The context of a call made without HTTP (`createCaller(await callerContext(…))`): tests and
 * server-side work. The bearer is authenticated exactly as a request's would be; no cookie, no
 * origin, no browser to answer.
 */
export async function callerContext(services: Services, facts: CallerFacts = {}): Promise<Context> {
  const checked = await checkCredentials(services, {
    method: 'POST',
    authorization: facts.bearer === undefined ? undefined : `Bearer ${facts.bearer}`,
    sessionCookie: undefined,
    origin: undefined,
    secFetchSite: undefined,
    isOwnOrigin: () => false,
    ip: facts.ip ?? '127.0.0.1',
  });
  return contextOf(services, { requestId: facts.requestId ?? 'req_caller', idempotencyKey: facts.idempotencyKey }, checked, NO_COOKIES, NO_HEADERS);
}
