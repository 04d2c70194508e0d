import { MAX_ACTIVE_KEYS, MAX_PASSKEYS, MAX_PENDING_INVITATIONS, MAX_WEBHOOKS_PER_FORM, type SecondFactor } from '@lfk/vocabulary';
import { DeadlockException, ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { type DatabaseFailure, databaseFailureOf } from '@lfk/db';
import { ZodError } from 'zod';
import { redactSecrets } from './credentials/redact.ts';

/** Every error code lfk answers with, its HTTP status and the sentence a caller sees. */
const CATALOGUE = {
  invalid_request: [400, 'The request is not valid.'],
  invalid_json: [400, 'The request body is not valid JSON.'],
  authorization_pending: [400, 'The sign-in has not been approved yet. Ask again after the interval.'],
  device_login_expired: [400, 'The sign-in request expired before it was approved. Start again.'],
  batch_too_large: [400, 'The tRPC batch holds too many calls.'],
  unauthenticated: [401, 'Authentication is required: send a session or an API key.'],
  invalid_api_key: [401, 'The API key is invalid or has been revoked.'],
  invalid_session: [401, 'The session is invalid or has expired. Sign in again.'],
  api_key_required: [401, 'This form accepts submissions authenticated with an API key only.'],
  invalid_credentials: [401, 'The email or password is incorrect.'],
  invalid_signature: [401, 'The report is not signed, or its signature does not verify with a trusted key.'],
  second_factor_required: [
    401,
    'The password is right, and this account has a second factor: send a code from the authenticator app, a recovery code or a passkey ' +
      'to POST /v1/auth/second-factor with the challenge, within 5 minutes.',
  ],
  invalid_second_factor: [401, 'The code is not right, or it was already used.'],
  invalid_challenge: [401, 'The sign-in has expired or was already completed. Sign in again.'],
  session_required: [403, 'This operation needs a signed-in session; API keys cannot be used here.'],
  owner_required: [403, 'Only an owner of the workspace can do this.'],
  origin_not_allowed: [403, "The request's origin is not allowed for this form."],
  forbidden: [403, 'This credential may not do this.'],
  csrf_failed: [403, "Cookie-authenticated requests that change state must come from lfk's own origin."],
  signup_disabled: [403, 'Sign-up is disabled on this server.'],
  device_login_denied: [403, 'The sign-in was denied.'],
  form_closed: [403, 'This form is closed and takes no more submissions.'],
  file_quarantined: [403, 'The malware scanner found malware in this file: it is quarantined and cannot be downloaded.'],
  email_not_confirmed: [
    403,
    'Confirm your email address first: open the link emailed to you at sign-up, or ask for a new one (POST /v1/auth/email-verification, ' +
      'or "Send a new link" on the dashboard\'s Account page). Until then an account cannot create API keys, add webhooks, invite or set an auto-reply.',
  ],
  reauthentication_required: [
    403,
    'This needs you to have signed in, or confirmed who you are, in the last few minutes: ' +
      'confirm with your password, a code or a passkey (POST /v1/auth/reauthenticate), then try again.',
  ],
  two_factor_required: [
    403,
    'This workspace requires its members to use a second factor: ' +
      'add an authenticator app or a passkey to your account (Account → Security, or `lfk account two-factor`), then come back.',
  ],
  invitation_for_another_address: [403, 'This invitation was sent to another email address: sign in, or sign up, with that address to accept it.'],
  workspace_not_found: [404, 'No such workspace.'],
  api_key_not_found: [404, 'No such API key.'],
  form_not_found: [404, 'No such form.'],
  project_not_found: [404, 'No such project.'],
  member_not_found: [404, 'No such member.'],
  submission_not_found: [404, 'No such submission.'],
  draft_not_found: [404, 'No such draft: it was sent, it expired, or the link is wrong.'],
  drafts_disabled: [403, 'This form keeps no drafts.'],
  session_not_found: [404, 'No such session of yours, or it has ended.'],
  device_login_not_found: [404, 'No such sign-in request, or it has expired or been used.'],
  webhook_not_found: [404, 'No such webhook endpoint.'],
  webhook_delivery_not_found: [404, 'No such webhook delivery.'],
  webhook_secret_not_found: [404, 'No such secret still signing for this endpoint.'],
  webhook_not_signed: [
    409,
    'Slack and Discord endpoints are not signed (they check no signature): there is no secret to reveal, rotate or end. Keep their URL secret.',
  ],
  webhook_secret_not_shared: [409, 'This endpoint signs with Ed25519: its private key never leaves lfk. Receivers verify with its public_key (whpk_…).'],
  passkey_not_found: [404, 'No such passkey of yours.'],
  invitation_not_found: [404, 'No such invitation: it was accepted, cancelled or replaced by a newer link, or it has expired.'],
  file_not_found: [404, 'No such file, or its link has expired.'],
  not_found: [404, 'Not found.'],
  request_timeout: [408, 'The request did not arrive in time.'],
  email_taken: [409, 'An account with that email address already exists.'],
  last_owner: [409, 'A workspace must keep at least one owner.'],
  form_already_claimed: [409, 'The form has already been claimed.'],
  email_already_verified: [409, 'The email address is already verified.'],
  no_notify_email: [409, 'The form has no notification address to verify.'],
  device_login_decided: [409, 'The sign-in request has already been approved or denied.'],
  api_key_revoked: [409, 'The API key is revoked; a revoked key cannot be rolled.'],
  api_key_already_rolled: [409, 'The API key has already been rolled and is in its grace period.'],
  invitation_limit_reached: [409, `The workspace already has ${MAX_PENDING_INVITATIONS} pending invitations. Cancel some first.`],
  webhook_limit_reached: [409, `The form already has ${MAX_WEBHOOKS_PER_FORM} webhook endpoints. Delete one first.`],
  webhook_disabled: [409, 'The webhook endpoint is disabled. Enable it, and the deliveries waiting for it are sent.'],
  webhook_delivery_in_flight: [409, 'The delivery is being attempted right now. Try again once that attempt is over.'],
  webhook_delivery_succeeded: [409, 'The delivery already reached the endpoint: there is nothing to discard.'],
  totp_already_enabled: [409, 'An authenticator app is already set up for this account: turn it off first to set up another.'],
  two_factor_not_enabled: [409, 'This account has no second factor: set up an authenticator app or a passkey first.'],
  enrolment_not_found: [409, 'No setup is in progress, or it expired: start again.'],
  passkey_limit_reached: [409, `This account already has its ${MAX_PASSKEYS} passkeys. Remove one first.`],
  passkey_already_registered: [409, 'This passkey is already registered.'],
  idempotency_key_reused: [409, 'The Idempotency-Key was already used with a different request.'],
  payload_too_large: [413, 'The request body is too large.'],
  file_too_large: [413, 'A file is larger than its field allows.'],
  submission_too_large: [413, "The submission's files together are larger than this server allows."],
  unsupported_media_type: [415, 'The request body has a content type this route does not accept.'],
  file_type_not_accepted: [415, "A file's content is of a type its field does not accept."],
  range_not_satisfiable: [416, 'The requested range is not within the file.'],
  validation_failed: [422, 'The submission does not satisfy the form schema.'],
  invalid_submission: [422, "The submission's files do not satisfy the form schema: one is missing, empty, or sent where no file (or no more) is taken."],
  captcha_failed: [422, 'The captcha was not passed: complete it and send the form again.'],
  api_key_limit_reached: [429, `The workspace already has ${MAX_ACTIVE_KEYS} active API keys. Revoke one first.`],
  rate_limited: [429, 'Too many requests. Retry later.'],
  headers_too_large: [431, 'The request headers are too large.'],
  internal_error: [500, 'Something went wrong on our side.'],
  unavailable: [503, 'The server is shutting down. Retry shortly.'],
  service_unavailable: [503, 'The database is not answering right now. Retry shortly.'],
  storage_unavailable: [503, 'File storage is not answering right now. Retry shortly.'],
  scanner_unavailable: [503, 'The malware scanner is not answering right now. Retry shortly.'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof CATALOGUE;
export const ERROR_CODES = Object.keys(CATALOGUE) as ErrorCode[];

export interface ErrorDetail {
  path: string;
  message: string;
}

/** How to complete a sign-in that needs its second factor (`second_factor_required`). */
export interface SecondFactorChallenge {
  /** `lfm_…`: sent back with the factor, once. */
  challenge: string;
  expires_at: string;
  /** What this account can complete it with. */
  factors: SecondFactor[];
  /** For an account with passkeys: the WebAuthn request options to hand to the authenticator. */
  passkey_options?: unknown;
}

export interface WireError {
  status: number;
  body: {
    error: { code: ErrorCode; message: string; details?: ErrorDetail[]; request_id: string } & Partial<SecondFactorChallenge>;
  };
}

const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'BAD_REQUEST',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  // tRPC has no code of its own for 416 or 431.
  431: 'BAD_REQUEST',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

export function statusOf(code: ErrorCode): number {
  return CATALOGUE[code][0];
}

/**
 * A domain error. It is a TRPCError so tRPC answers with the right HTTP status, and it carries
 * lfk's own code, which the one mapping below turns into the wire shape.
 */
export class ApiError extends TRPCError {
  readonly apiCode: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  /** Response headers that belong to this error, such as `Retry-After`. */
  readonly headers: Record<string, string> | undefined;
  /** How to complete the sign-in, for `second_factor_required`. */
  readonly secondFactor: SecondFactorChallenge | undefined;

  constructor(
    code: ErrorCode,
    options: { message?: string; details?: ErrorDetail[]; headers?: Record<string, string>; secondFactor?: SecondFactorChallenge } = {},
  ) {
    // An ApiError is an answer, not a fault: nobody reads its stack, and capturing one is most of its cost.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super({ code: TRPC_CODE_BY_STATUS[statusOf(code)]!, message: options.message ?? CATALOGUE[code][1] });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.apiCode = code;
    this.details = options.details;
    this.headers = options.headers;
    this.secondFactor = options.secondFactor;
  }
}

export function detailsOfZodError(error: ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/**
 * The unique indexes a caller can race into (a double-click, two tabs), and the conflict each one
 * means. The index decides, so the loser of a race gets the same 409 as a later request would.
 */
const CONFLICT_BY_UNIQUE_INDEX: Record<string, ErrorCode> = {
  users_email_unique: 'email_taken',
};

/**
 * The foreign keys a caller can race into, and the 404 each means: a submission written while its
 * form is deleted finds the form gone, as a later request would.
 */
const NOT_FOUND_BY_FOREIGN_KEY: Record<string, ErrorCode> = {
  submissions_form_id_foreign: 'form_not_found',
  // A write into a workspace deleted meanwhile (a key's form, a member's project).
  forms_workspace_id_foreign: 'workspace_not_found',
  forms_project_id_foreign: 'workspace_not_found',
  projects_workspace_id_foreign: 'workspace_not_found',
  api_keys_workspace_id_foreign: 'workspace_not_found',
  memberships_workspace_id_foreign: 'workspace_not_found',
  invitations_workspace_id_foreign: 'workspace_not_found',
};

/**
 * A violation of a constraint a caller can race into, as its 409 or 404; a deadlock PostgreSQL
 * broke by rolling this request back (nothing of it was written) as a 503 to retry; null for any
 * other error.
 */
function fromConstraintViolation(error: unknown): ApiError | null {
  if (error instanceof DeadlockException) {
    return new ApiError('unavailable', {
      message: 'A change made at the same time got in the way, and nothing was changed. Retry.',
      headers: { 'retry-after': '1' },
    });
  }
  const table =
    error instanceof UniqueConstraintViolationException
      ? CONFLICT_BY_UNIQUE_INDEX
      : error instanceof ForeignKeyConstraintViolationException
        ? NOT_FOUND_BY_FOREIGN_KEY
        : null;
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  const code = table && typeof constraint === 'string' ? table[constraint] : undefined;
  return code ? new ApiError(code) : null;
}

/** Seconds a client is asked to wait while the database is away (a probe looks every second). */
export const DATABASE_RETRY_AFTER_S = 5;

/** What a client reads of each failure; an unreachable database keeps the code's own message. */
const FAILURE_MESSAGES: Record<DatabaseFailure, string | undefined> = {
  unreachable: undefined,
  timed_out: 'The database took too long to answer. Retry shortly.',
  busy: 'Every database connection of this server was in use for too long. Retry shortly.',
};

/**
 * The database down, hung, too slow to answer, or this process out of connections: a 503 to retry, not a fault of lfk's. Nothing
 * acknowledged is lost; a write whose commit went unanswered may or may not have been kept, which
 * is what an Idempotency-Key on the retry is for.
 */
function fromDatabaseFailure(error: unknown): ApiError | null {
  const failure = databaseFailureOf(error);
  if (failure === null) return null;
  const message = FAILURE_MESSAGES[failure];
  return new ApiError('service_unavailable', { ...(message ? { message } : {}), headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) } });
}

/** tRPC's own failures that need no closer look, in lfk's terms. */
const BY_TRPC_CODE: Partial<Record<TRPCError['code'], (error: TRPCError) => ApiError>> = {
  PARSE_ERROR: () => new ApiError('invalid_json'),
  NOT_FOUND: () => new ApiError('not_found'),
  METHOD_NOT_SUPPORTED: () => new ApiError('not_found', { message: 'No such route for this method.' }),
  PAYLOAD_TOO_LARGE: () => new ApiError('payload_too_large'),
  // tRPC answers a procedure whose answer is a stream with this code (the server refuses those on /trpc before they run).
  UNSUPPORTED_MEDIA_TYPE: (error) =>
    error.message.startsWith('Cannot use stream-like response')
      ? new ApiError('unsupported_media_type', { message: 'This procedure answers a file, streamed: GET it from its REST route.' })
      : new ApiError('unsupported_media_type'),
};

/** tRPC's own failures (bad procedure path, bad input) in lfk's terms. */
function fromTrpcError(error: TRPCError): ApiError | null {
  if (error.code !== 'BAD_REQUEST') return BY_TRPC_CODE[error.code]?.(error) ?? null;
  // Input validation. (A ZodError under INTERNAL_SERVER_ERROR is a bad output: that stays a 500.)
  if (error.cause instanceof ZodError) return new ApiError('invalid_request', { details: detailsOfZodError(error.cause) });
  // tRPC reports an unparseable JSON body or `?input=` as BAD_REQUEST caused by a SyntaxError.
  if (error.cause instanceof SyntaxError) return new ApiError('invalid_json');
  return new ApiError('invalid_request', { message: error.message });
}

/** Finds the lfk error inside whatever was thrown; null means it was unexpected. */
export function asApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof TRPCError) {
    if (error.cause instanceof ApiError) return error.cause;
    return fromConstraintViolation(error.cause) ?? fromDatabaseFailure(error.cause) ?? fromTrpcError(error);
  }
  const conflict = fromConstraintViolation(error) ?? fromDatabaseFailure(error);
  if (conflict) return conflict;
  if (error instanceof ZodError) {
    return new ApiError('invalid_request', { details: detailsOfZodError(error) });
  }
  return null;
}

/**
 * lfk's error as tRPC's envelope carries it (`error.data`): REST's error object plus the status
 * the HTTP adapter answers with. Built here for tRPC's error formatter and for errors the server
 * answers before tRPC runs, so a client reads one shape.
 */
export const trpcErrorData = (wire: WireError) => ({ ...wire.body.error, httpStatus: wire.status });

/**
 * The one place an error becomes a status and a body. Unexpected errors say nothing of themselves;
 * messages and details that quote what the caller sent (a path, a field name) never quote a secret.
 */
export function toWireError(error: unknown, requestId: string): WireError {
  const api = asApiError(error) ?? new ApiError('internal_error');
  const details = api.details?.map((d) => ({ path: redactSecrets(d.path), message: redactSecrets(d.message) }));
  const body: WireError['body'] = {
    error: {
      code: api.apiCode,
      message: redactSecrets(api.message),
      ...(details ? { details } : {}),
      ...api.secondFactor,
      request_id: requestId,
    },
  };
  return { status: statusOf(api.apiCode), body };
}

/** A request refused for one field, named by its path (`400 invalid_request`). */
export const invalidField = (path: string, message: string) => new ApiError('invalid_request', { details: [{ path, message }] });
