import { Form, type FormReading, isId, type SubmissionFormReading } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Services } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { readForm } from '../forms/form-cache.ts';
import { httpUrl } from '../forms/schemas.ts';
import { SUBMISSION_MAX_BYTES } from './schemas.ts';

/**
 * The form a submission is for, claimed or not, as the database holds it now (in a transaction
 * that must see it so). A wrong-shaped id names nothing.
 */
export async function readSubmissionForm(em: EntityManager, formId: string): Promise<SubmissionFormReading> {
  const found = isId('form', formId) ? await em.getRepository(Form).readForSubmission(formId) : null;
  if (!found) throw new ApiError('form_not_found');
  return found;
}

/**
 * The form a submission (or its CORS preflight) is for, claimed or not, from this process's form
 * cache when it holds it: a submission costs no statement to read its form. Frozen: it is every request's.
 */
export async function findSubmissionForm(services: Pick<Services, 'formCache'>, em: EntityManager, formId: string): Promise<SubmissionFormReading> {
  const found = await readForm(services.formCache, em, formId);
  if (!found) throw new ApiError('form_not_found');
  return found;
}

/** Browser submissions are judged by their `Origin`: it must be on the form's list, exactly. */
export function isOriginAllowed(form: FormReading, origin: string): boolean {
  return form.submissionMode === 'browser' && form.allowedOrigins.includes(origin);
}

/**
 * Whether a page on `origin` may use the form (submit to it, read its public description); a
 * browser form notes the origins it turns away, so its owner sees them on its page.
 */
export function originGranted(services: Pick<Services, 'refusedOrigins'>, form: FormReading, origin: string | undefined): origin is string {
  if (origin !== undefined && isOriginAllowed(form, origin)) return true;
  if (origin !== undefined && form.submissionMode === 'browser') services.refusedOrigins.note(form.id, origin);
  return false;
}

/**
 * The origin a browser submission (or its CORS preflight) comes from, if the form takes it;
 * otherwise 403 `origin_not_allowed`, and the origin is noted for the form's page.
 */
export function admitOrigin(services: Pick<Services, 'refusedOrigins'>, form: FormReading, origin: string | undefined): string {
  if (originGranted(services, form, origin)) return origin;
  throw new ApiError('origin_not_allowed');
}

/** A CORS preflight for a form's submissions: the origin it is granted to, or why not. */
export async function preflightSubmission(
  services: Pick<Services, 'db' | 'formCache' | 'refusedOrigins'>,
  formId: string,
  origin: string | undefined,
): Promise<string> {
  const form = await findSubmissionForm(services, services.db.fork(), formId);
  return admitOrigin(services, form, origin);
}

/**
 * The bytes of `value` written as compact JSON, counted up to `limit` (then `limit + 1`). Walked
 * without recursion: a 64 KiB body can nest arrays deeper than `JSON.stringify` can follow.
 */
function jsonBytesUpTo(value: unknown, limit: number): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && bytes <= limit) {
    const next = pending.pop();
    if (Array.isArray(next)) {
      bytes += 2 + Math.max(0, next.length - 1);
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object') {
      const entries = Object.entries(next);
      bytes += 2 + Math.max(0, entries.length - 1);
      for (const [key, item] of entries) {
        bytes += Buffer.byteLength(JSON.stringify(key)) + 1;
        pending.push(item);
      }
    } else {
      bytes += Buffer.byteLength(JSON.stringify(next) ?? 'null');
    }
  }
  return Math.min(bytes, limit + 1);
}

/** Measured on the values themselves, so every transport (REST, tRPC, a batch) holds the same line. */
export function assertSubmissionSize(data: Record<string, unknown>): void {
  if (jsonBytesUpTo(data, SUBMISSION_MAX_BYTES) > SUBMISSION_MAX_BYTES) {
    throw new ApiError('payload_too_large', { message: `A submission holds at most ${SUBMISSION_MAX_BYTES / 1024} KiB of values.` });
  }
}

/** The browser-submission allowance is per form and per client address: one visitor never spends another's. */
export const browserSubmitter = (form: FormReading, ip: string) => `${form.id} ${ip}`;

/**
 * Where a person goes after an HTML form post: the form's `redirect_url` as the form schema stores
 * it today (punycode host, percent-encoding), always a valid `Location`. A value an older version
 * stored that today's rules refuse (no http(s) URL, control characters) is not followed: null, and
 * the person gets the thank-you page.
 */
export function redirectLocation(stored: string | null): string | null {
  if (stored === null) return null;
  const parsed = httpUrl.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
