import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';

/** Who may call a procedure. */
export type Access = 'public' | 'session' | 'member' | 'owner' | 'forms_scope' | 'forms_scope_or_anonymous' | 'api_key';

/** How a procedure is reached over the `/v1` REST API; its input, output and access come from the procedure. */
export interface RestMeta {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify syntax: `:name` segments become input fields of the same name. */
  path: string;
  status: 200 | 201 | 202 | 204;
  summary: string;
  /**
   * Routes whose HTTP side is more than JSON in, JSON out get their own module in the server:
   * `submission` takes urlencoded HTML form posts and CORS; `html` answers a page;
   * `signed_report` hands the raw body and its signature headers to the procedure (leak reports);
   * `password_reset` answers a reset link's page, and its form post or JSON; `file` streams a
   * stored file's bytes as an attachment (ranges too); `public_form` answers pages of other
   * origins (CORS) and revalidations (`ETag`, 304); `browser` answers the form's pages (CORS, and
   * its preflight) and JSON like any route.
   */
  transport?: 'submission' | 'html' | 'signed_report' | 'export' | 'password_reset' | 'file' | 'public_form' | 'browser';
  /** The most body bytes read, when the procedure holds a tighter limit than the server's 1 MiB. */
  bodyLimit?: number;
  /** The body as documented, when the route's module builds the input from it rather than passing it on. */
  body?: z.ZodType;
}

/**
 * What a procedure's `.meta()` holds. `access` is stamped by the builder in trpc.ts whose
 * middleware enforces it, so the two cannot disagree; a router sets `rest` only.
 */
export interface ProcedureMeta {
  access?: Access;
  /** The errors the builder's middleware answers with (stamped with `access`, by the same builder). */
  accessErrors?: readonly ErrorCode[];
  rest?: RestMeta;
  /**
   * The errors the procedure itself can answer with, beyond its builder's and beyond input
   * validation (`invalid_request`): what OpenAPI documents per operation.
   */
  errors?: readonly ErrorCode[];
  /** It honours an `Idempotency-Key` (through `runIdempotently`), so it can also answer `idempotency_key_reused`. */
  idempotent?: boolean;
  /**
   * Sudo mode: a person's session must have proved who they are within the sudo window, or the
   * call answers `reauthentication_required` (sessionProcedure enforces it). `when` limits it to
   * some inputs, read raw.
   */
  sudo?: true | { when: (rawInput: unknown) => boolean };
  /**
   * For the inputs `when` picks (read raw), a person's session needs a confirmed address, as
   * `confirmedOwnerProcedure` asks of every call (the forms scope builders enforce it; a key passes,
   * since only a confirmed account makes one). Documented as `email_not_confirmed`.
   */
  confirmedAddress?: { when: (rawInput: unknown) => boolean };
  /**
   * Open to a member of a workspace that requires a second factor their account lacks (leaving
   * it); every other workspace route answers them `two_factor_required`.
   */
  withoutRequiredTwoFactor?: true;
}

/**
 * Sudo mode when the input makes someone an owner (`role: "owner"`): inviting one, or changing a
 * member's role to it. The effect is guarded, not the route: every path to an owner carries this.
 */
export const MAKING_AN_OWNER = { when: (raw: unknown) => (raw as { role?: unknown } | null)?.role === 'owner' } as const;

/**
 * Sudo mode when the input stops asking a second factor of a workspace's members
 * (`require_two_factor: false`): like turning off one's own authenticator app, it lowers a guard.
 */
export const DROPPING_REQUIRED_TWO_FACTOR = { when: (raw: unknown) => (raw as { require_two_factor?: unknown } | null)?.require_two_factor === false } as const;

type Method = RestMeta['method'];

/** The meta of a procedure reached at `route` (`'GET /v1/forms/:form_id'`) over the REST API. */
export function rest(
  route: `${Method} /v1/${string}`,
  status: RestMeta['status'],
  summary: string,
  options: Pick<RestMeta, 'transport' | 'bodyLimit' | 'body'> & Pick<ProcedureMeta, 'errors' | 'idempotent' | 'sudo' | 'confirmedAddress'> = {},
): ProcedureMeta {
  const [method, path] = route.split(' ') as [Method, string];
  const { errors = [], idempotent = false, sudo, confirmedAddress, ...http } = options;
  return {
    rest: { method, path, status, summary, ...http },
    errors: confirmedAddress ? [...errors, 'email_not_confirmed'] : errors,
    idempotent,
    ...(sudo ? { sudo } : {}),
    ...(confirmedAddress ? { confirmedAddress } : {}),
  };
}
