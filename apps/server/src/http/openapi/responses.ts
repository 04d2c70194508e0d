import { ERROR_CODES, type ErrorCode, statusOf } from '@lfk/api';
import { SECOND_FACTORS } from '@lfk/vocabulary';
import type { JsonSchema } from './schemas.ts';

const ERROR = '#/components/schemas/Error';

/** Every answer's `x-request-id`; the named headers below, by the error codes that send them. */
const HEADERS_BY_CODE: Partial<Record<ErrorCode, string>> = { rate_limited: 'RetryAfter', unavailable: 'RetryAfter' };

export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The shared pieces every error answer refers to: one body shape, and the headers. */
export const sharedComponents = {
  schemas: {
    ErrorCode: { type: 'string', enum: ERROR_CODES, description: "lfk's error codes; each has one HTTP status." },
    Error: {
      type: 'object',
      description: "lfk's one error shape. An operation documents the codes it can answer with, per status.",
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message', 'request_id'],
          additionalProperties: false,
          properties: {
            code: { $ref: '#/components/schemas/ErrorCode' },
            message: { type: 'string', description: 'A sentence for people; never a secret.' },
            details: {
              type: 'array',
              description: 'One entry per bad field (`invalid_request`, `validation_failed`).',
              items: {
                type: 'object',
                required: ['path', 'message'],
                additionalProperties: false,
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
            request_id: { type: 'string', description: 'The same as the `x-request-id` header.' },
            challenge: { type: 'string', description: '`second_factor_required` only: the `lfm_…` to send to `POST /v1/auth/second-factor` with the factor.' },
            expires_at: { type: 'string', format: 'date-time', description: '`second_factor_required` only: when the challenge expires.' },
            factors: {
              type: 'array',
              description: '`second_factor_required` only: what the account can complete its sign-in with.',
              items: { type: 'string', enum: [...SECOND_FACTORS] },
            },
            passkey_options: {
              $ref: '#/components/schemas/PublicKeyCredentialRequestOptionsJSON',
              description: '`second_factor_required` only, for an account with passkeys: for `navigator.credentials.get()`; send its answer as `passkey`.',
            },
          },
        },
      },
      additionalProperties: false,
    },
  } satisfies Record<string, JsonSchema>,
  headers: {
    RequestId: {
      description:
        "The request's id, on every answer: the caller's own `x-request-id` when it is 1 to 128 characters of " +
        '`[A-Za-z0-9._-]`, else one the server made (`req_…`). Quote it when reporting a problem.',
      required: true,
      schema: { type: 'string' },
    },
    RetryAfter: { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer', minimum: 0 } },
    IdempotentReplayed: {
      description: '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.',
      required: false,
      schema: { type: 'string', enum: ['true'] },
    },
    Location: { description: "Where the browser is sent: the form's `redirect_url`.", required: true, schema: { type: 'string', format: 'uri' } },
  },
  parameters: {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe for 24 hours: the same key and body answer the stored response (with ' +
        '`idempotent-replayed: true`); another body with the same key is `409 idempotency_key_reused`. ' +
        'A key belongs to the caller and to what the request writes to. 1 to 255 visible ASCII characters.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
    },
  },
};

/** The body of an error answer whose code is one of `codes`. */
function errorBody(codes: ErrorCode[]): JsonSchema {
  return {
    allOf: [{ $ref: ERROR }, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } }],
  };
}

const SENTENCE: Partial<Record<number, string>> = {
  400: 'The request is not valid',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found',
  408: 'The request did not arrive in time',
  409: 'A conflict with what exists',
  413: 'The body is too large',
  415: 'A content type this operation does not take',
  422: 'The values do not satisfy the form',
  429: 'Too many requests',
  431: 'The headers are too large',
  500: 'Something went wrong on our side',
  503: 'The server is shutting down; retry',
};

/** How each error status may be answered: as JSON, and as an HTML page for the codes a page shows. */
export interface ErrorMedia {
  /** Codes answered with an HTML page (a browser's form post, a verification link). */
  html: ReadonlySet<ErrorCode>;
  /** Codes answered with JSON. */
  json: ReadonlySet<ErrorCode>;
}

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_m, _sep, c: string) => c.toUpperCase());

/**
 * The error answers every operation shares are written once, in `components.responses`, named
 * after their one code (`InternalError`), and referred to.
 */
export class SharedResponses {
  readonly responses: Record<string, unknown> = {};

  refer(response: Record<string, unknown>, codes: ErrorCode[]): unknown {
    if (codes.length !== 1) return response;
    const name = pascal(codes[0]!);
    const known = this.responses[name];
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(response)) return response;
    this.responses[name] = response;
    return { $ref: `#/components/responses/${name}` };
  }
}

/** One response per status, listing that status's codes, in the media types they are answered with. */
export function errorResponses(codes: ErrorCode[], media: ErrorMedia, shared: SharedResponses): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERROR_CODES.filter((c) => codes.includes(c))) {
    byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, ofStatus] of [...byStatus].sort(([a], [b]) => a - b)) {
    const content: Record<string, unknown> = {};
    const json = ofStatus.filter((c) => media.json.has(c));
    const html = ofStatus.filter((c) => media.html.has(c));
    if (json.length > 0) content['application/json'] = { schema: errorBody(json) };
    if (html.length > 0)
      content['text/html'] = {
        schema: {
          type: 'string',
          description: `A page for people; its \`<meta name="lfk-error-code">\` names the code: ${html.map((c) => `\`${c}\``).join(', ')}.`,
        },
      };
    const headers: Record<string, unknown> = { 'x-request-id': headerRef('RequestId') };
    const named = [...new Set(ofStatus.map((c) => HEADERS_BY_CODE[c]).filter((h) => h !== undefined))];
    for (const name of named) {
      // Required only when every code of this status sends it.
      const always = ofStatus.every((c) => HEADERS_BY_CODE[c] === name);
      headers[name === 'RetryAfter' ? 'Retry-After' : name] = always
        ? headerRef(name)
        : {
            ...sharedComponents.headers.RetryAfter,
            required: false,
            description: `Seconds to wait before trying again (with ${ofStatus
              .filter((c) => HEADERS_BY_CODE[c] === name)
              .map((c) => `\`${c}\``)
              .join(', ')}).`,
          };
    }
    const response = { description: `${SENTENCE[status] ?? 'Error'}: ${ofStatus.map((c) => `\`${c}\``).join(', ')}`, headers, content };
    responses[status] = shared.refer(response, ofStatus);
  }
  return responses;
}
