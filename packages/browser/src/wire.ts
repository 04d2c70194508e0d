/** What the kit reads of lfk's answers (DESIGN §2, §18): the error shape and the form's public description. */

export interface WireError {
  code: string;
  message: string;
  details?: { path: string; message: string }[];
  request_id?: string;
}

export type CaptchaProvider = 'turnstile' | 'hcaptcha' | 'recaptcha';

/** `GET /v1/forms/{form_id}/public`, the parts the kit uses. */
export interface PublicForm {
  id: string;
  open: boolean;
  closed_message: string | null;
  fields: { name: string; type: string; label: string | null; private?: boolean }[];
  honeypot_field: string | null;
  captcha: { provider: CaptchaProvider; site_key: string } | null;
  drafts: boolean;
  draft_email_link: boolean;
}

/** Where a form is sent: lfk's base URL (no trailing slash) and the form's id. */
export interface Target {
  base: string;
  id: string;
}

export const submissionsUrl = (t: Target) => `${t.base}/v1/forms/${t.id}/submissions`;
export const descriptionUrl = (t: Target) => `${t.base}/v1/forms/${t.id}/public`;
export const draftsUrl = (t: Target) => `${t.base}/v1/forms/${t.id}/drafts`;

/** `…/v1/forms/form_…/submissions`: a form whose action is this is lfk's. */
const SUBMISSIONS = /^(.*)\/v1\/forms\/(form_\w+)\/submissions\/?$/;

/**
 * The form's lfk target: `data-lfk-form="form_…"` (with `data-lfk-url`, else the server the kit was
 * loaded from), or an `action` that is an lfk submission URL. Null: not an lfk form.
 */
export function targetOf(form: HTMLFormElement, scriptBase: string | null): Target | null {
  const id = form.getAttribute('data-lfk-form');
  if (id) {
    const base = form.getAttribute('data-lfk-url') || scriptBase;
    return base ? { base: base.replace(/\/+$/, ''), id } : null;
  }
  const action = form.getAttribute('action');
  if (!action) return null;
  const match = SUBMISSIONS.exec(new URL(action, document.baseURI).href.split(/[?#]/)[0]!);
  return match ? { base: match[1]!, id: match[2]! } : null;
}

/** A random UUID: `crypto.randomUUID` where the page is a secure context, else the same shape from `getRandomValues`. */
export function newKey(): string {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 15) | 64;
  b[8] = (b[8]! & 63) | 128;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
