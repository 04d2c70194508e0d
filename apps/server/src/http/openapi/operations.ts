import type { ErrorCode, RestRoute } from '@lfk/api';
import { BUTTON_BODY_LIMIT } from '../button-links.ts';

/** One tag per router, in the order a reader meets them. */
export const TAGS = [
  { name: 'Accounts', description: 'Sign up, sign in and out, and the session.' },
  {
    name: 'Two-factor sign-in',
    description:
      "A second factor for a person's account (an authenticator app, recovery codes), completing a sign-in that needs one, " +
      'and confirming who you are again for what is dangerous (sudo mode).',
  },
  { name: 'Device sign-in', description: 'Sign in a device without a browser (the CLI): it shows a code, a signed-in person approves it.' },
  { name: 'Workspaces', description: 'Workspaces, their members and projects, and the audit log. Sessions only.' },
  { name: 'API keys', description: "A workspace's API keys (`lfk_…`), managed by its owners with a session. A key is shown once, when made." },
  { name: 'Forms', description: 'Forms: made with a key, a session or no credentials at all (unclaimed), read and changed with a key or a session.' },
  { name: 'Submissions', description: 'What people and programs send to a form, and reading it back (sessions only).' },
  {
    name: 'Form pages',
    description: 'What the page a form lives on reads of it, without credentials: the form described for rendering and checking it (`lfk.js`, `@lfk/react`).',
  },
  {
    name: 'Files',
    description:
      "Files sent with submissions: downloaded by members' sessions, or through the signed links webhook payloads and exports carry " +
      '(no session; they expire, and die with their submission). Always an attachment, never rendered.',
  },
  {
    name: 'Webhooks',
    description:
      "A form's webhook endpoints (at most 5 per form): each event is POSTed to an https URL of a public address, signed as " +
      'Standard Webhooks specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers; HMAC-SHA256 with the ' +
      "endpoint's `whsec_…` secret). The secret is shown once, when the endpoint is made or its secret rotated; after that " +
      "only a member's session can read it again. Deliveries, which carry submission values, are readable and retried by " +
      "members' sessions only, never by a key.",
  },
  { name: 'Email verification', description: "The link a form's `notify_email` is sent: a page, and its Verify button." },
  { name: 'Auto-replies', description: 'The stop link in each auto-reply (`List-Unsubscribe`): a page and its button, or one click from a mail program.' },
  { name: 'Leaked keys', description: "GitHub's secret scanning reports keys found in public; each is revoked at once." },
  { name: 'Operations', description: 'Health, readiness, and this document.' },
] as const;

export type Tag = (typeof TAGS)[number]['name'];

/** A procedure's router is its tag. */
export const TAG_OF_ROUTER: Record<string, Tag> = {
  auth: 'Accounts',
  twoFactor: 'Two-factor sign-in',
  deviceLogins: 'Device sign-in',
  workspaces: 'Workspaces',
  members: 'Workspaces',
  invitations: 'Workspaces',
  passwordResets: 'Accounts',
  projects: 'Workspaces',
  auditEvents: 'Workspaces',
  apiKeys: 'API keys',
  forms: 'Forms',
  submissions: 'Submissions',
  files: 'Files',
  publicForms: 'Form pages',
  drafts: 'Form pages',
  webhooks: 'Webhooks',
  emailVerifications: 'Email verification',
  autoReplyStops: 'Auto-replies',
  secretScanning: 'Leaked keys',
};

/** Path parameters mean the same on every route. */
export const PATH_PARAMETERS: Record<string, string> = {
  workspace_id: "The workspace's id (`ws_…`).",
  key_id: "The API key's id (`key_…`).",
  user_id: "The member's user id (`usr_…`).",
  form_id: "The form's id (`form_…`).",
  passkey_id: "The passkey's id (`pkey_…`).",
  submission_id: "The submission's id (`sub_…`).",
  file_id: "The file's id (`file_…`), from the submission's `files`.",
  webhook_id: "The webhook endpoint's id (`wh_…`).",
  invitation_id: "The invitation's id (`inv_…`).",
  delivery_id: "The webhook delivery's id (`whd_…`).",
  secret_number: "A webhook signing secret's number, as the endpoint's `secrets` lists it.",
  session_id: 'The id of one of your sessions (`ses_…`), as `GET /v1/auth/sessions` lists them.',
  token:
    'The token of the emailed link (a verification `lfv_…`, a password reset `lfr_…`, an invitation `lfi_…`, an auto-reply stop `lfu_…`), ' +
    'or of a signed file link as a webhook payload or an export gave it.',
  resume_token: 'The `lfp_…` token a draft was started with, which the page keeps.',
  user_code: 'The code the device shows (`BCDF-GHJK`); case, spaces and dashes do not matter.',
};

const ACCESS_NOTES: Record<RestRoute['access'], string> = {
  public: 'No credentials needed.',
  session: 'A signed-in session (`Authorization: Bearer lfs_…` or the `lfk_session` cookie). API keys get 403 `session_required`.',
  member: 'A session of a member of the workspace. API keys get 403 `session_required`.',
  owner: 'A session of an owner of the workspace. API keys get 403 `session_required`.',
  forms_scope: 'A workspace API key (`Authorization: Bearer lfk_…`) or a session of a member of the workspace.',
  api_key: 'A workspace API key (`Authorization: Bearer lfk_…`); a session gets 401 `api_key_required`.',
  forms_scope_or_anonymous:
    'A workspace API key (`Authorization: Bearer lfk_…`) or a session of a member of the workspace; ' +
    'without credentials, the form is made unclaimed (`notify_email` required; rate-limited per address).',
};

const SUBMISSION_NOTES =
  'A `browser`-mode form takes submissions whose `Origin` is on its `allowed_origins` (CORS preflight is answered ' +
  'for those origins only), or server-side calls with a key of its workspace; an `api_key`-mode form needs such a ' +
  'key. The body is the flat object of field values, as JSON or as an HTML form post (at most 64 KiB). ' +
  "An HTML form post (any body but JSON, with `Accept: text/html`) is answered as a browser needs: 303 to the form's " +
  "`redirect_url`, or a thank-you page; each refusal (400, 403, 413, 415, 422, 429, 503) is a page in the visitor's " +
  'words, naming fields by their labels and leading back to the site when the post came from one of its origins, or a ' +
  "303 to the form's `error_redirect_url` with `?error=<code>&fields=<names>`. " +
  'Values that do not satisfy the form get 422 `validation_failed` with one detail per field; a field the form does not ' +
  'name is refused, kept or dropped as its `unknown_fields` says.';

const LEAK_REPORT_NOTES =
  "GitHub's secret scanning partner format: a JSON array of `{ token, type, url, source }`, signed over the raw body " +
  'with ECDSA P-256 / SHA-256 by a key trusted in `LFK_SECRET_SCANNING_KEYS`. Each lfk key that still works is ' +
  'revoked at once (`revoked_reason: "leaked"`), its workspace\'s owners are emailed where it was found, and an ' +
  '`api_key.leaked` audit event names the reporter. The answer labels each token by its sha256: `true_positive` ' +
  'for a key lfk issued, `false_positive` otherwise. An unsigned or badly signed report is 401 `invalid_signature` ' +
  'and changes nothing.';

const EXPORT_NOTES =
  "Streamed as it is read, with flat memory whatever the form holds. CSV: one column per field of the form's schema " +
  'after `id`, `created_at` and `via`; quoted as RFC 4180 says, records ended by CRLF; a cell starting with `=`, `+`, ' +
  "`-`, `@`, tab or CR is prefixed with `'` so a spreadsheet shows it rather than running it. `bom=true` starts the " +
  'file with a UTF-8 byte order mark, for Excel. JSON Lines: every value a submission holds (fields since removed ' +
  "from the schema too). The filters are the list's.";

/** The two sides of a verification link: opening it changes nothing, its button verifies. */
const LINK_NOTES: Record<string, string> = {
  GET:
    'Opened from an email, and by link checkers (HEAD) and mail scanners: shows the address and the form, with a ' +
    '"Verify" button that posts to this link. GET and HEAD change nothing. 404 when the link is not valid ' +
    '(used, replaced by a newer one, or older than 24 hours). Every answer is a page.',
  POST:
    'The page\'s "Verify" button, a plain HTML form post (its body, if any, is ignored; at most ' +
    `${BUTTON_BODY_LIMIT} bytes): marks the address verified. The link works once. No session is needed and no CSRF ` +
    'check applies: the token the address was sent is the only credential. 404 when the link is not valid. ' +
    'Every answer is a page.',
};

/** The two sides of an auto-reply's stop link. */
const STOP_NOTES: Record<string, string> = {
  GET:
    'Opened from an auto-reply (and by link checkers and mail scanners): names the workspace and the address, with a ' +
    '"Stop them" button that posts to this link. GET and HEAD change nothing. 404 when lfk did not make the link or ' +
    'its workspace is gone. Every answer is a page.',
  POST:
    `The page's button, or a mail program's one-click unsubscribe (RFC 8058; its body, if any, is ignored; at most ${BUTTON_BODY_LIMIT} ` +
    "bytes): the workspace's forms send the address no more auto-replies. Pressing it again changes nothing. No session " +
    "is needed: the link, with lfk's MAC over the workspace and the address, is the credential. Every answer is a page.",
};

/** The pages of the links people are emailed, by router. */
const HTML_NOTES: Record<string, Record<string, string>> = { emailVerifications: LINK_NOTES, autoReplyStops: STOP_NOTES };

/** The two sides of a password reset link. */
const RESET_NOTES: Record<string, string> = {
  GET:
    'Opened from the reset email (and by mail scanners): a page with a form for the new password. GET and HEAD ' +
    'change nothing. 404 when the link is not valid (used, replaced by a newer one, or older than one hour); every ' +
    'answer is a page.',
  POST:
    "Sets the new password with the link's token, the whole credential (no session, no CSRF check). The page's form " +
    'posts `password=…` urlencoded and gets pages back (a refused password shows the form again, 400); a JSON ' +
    '`{ "password": … }` gets 204 and JSON errors. The link works once; every session of the account is signed out, ' +
    'and a notice is emailed to the address. The link also confirms the address; when that is the first time, the ' +
    'API keys the account made, the webhooks it (or those keys) added and the invitations it sent are taken back, ' +
    'and the notice lists them.',
};

export function descriptionOf(route: RestRoute): string {
  if (route.transport === 'password_reset') return RESET_NOTES[route.method]!;
  if (route.transport === 'submission') return SUBMISSION_NOTES;
  if (route.transport === 'signed_report') return LEAK_REPORT_NOTES;
  if (route.transport === 'html') return HTML_NOTES[route.procedure.split('.')[0]!]![route.method]!;
  if (route.transport === 'export') return `${ACCESS_NOTES[route.access]} ${EXPORT_NOTES}`;
  return ACCESS_NOTES[route.access];
}

/**
 * What the server answers any request with, whatever its route: a request without `Host`
 * (server.ts), a client too slow or headers too large (client-errors.ts), a fault, draining, and
 * the database away (every route but the health checks asks it something).
 */
export const ANY_REQUEST: ErrorCode[] = ['invalid_request', 'request_timeout', 'headers_too_large', 'internal_error', 'unavailable', 'service_unavailable'];

/**
 * Answered before any route has seen the request, so JSON whatever the route answers: on the bare
 * socket (a client too slow, headers too large, a request Node cannot parse: `invalid_request`),
 * or by the first hook (no `Host`: `invalid_request`; draining: `unavailable`).
 */
export const BEFORE_ROUTING: ReadonlySet<ErrorCode> = new Set(['request_timeout', 'headers_too_large', 'invalid_request', 'unavailable']);

/** Fastify reads the body of every method but GET and HEAD: too large, a type the route does not take, bad JSON. */
export function bodyErrors(route: Pick<RestRoute, 'method' | 'transport'>): ErrorCode[] {
  if (route.method === 'GET') return [];
  // The verification button's route takes form posts only, and never parses them.
  if (route.transport === 'html') return ['payload_too_large', 'unsupported_media_type'];
  if (route.transport === 'password_reset') return ['invalid_json', 'payload_too_large', 'unsupported_media_type'];
  return ['invalid_json', 'payload_too_large', 'unsupported_media_type'];
}

/** The errors a route can answer with: its builder's and procedure's, the body's, and any request's. */
export function errorsOf(route: RestRoute): ErrorCode[] {
  // A cookie is checked against CSRF only on requests that change something (authenticate.ts).
  const own = route.method === 'GET' ? route.errors.filter((code) => code !== 'csrf_failed') : route.errors;
  return [...new Set([...ANY_REQUEST, ...own, ...bodyErrors(route), ...(route.idempotent ? ['idempotency_key_reused' as const] : [])])];
}

/** Who may call, as OpenAPI security requirements; `{}` where no credentials are needed. */
export function securityOf(route: RestRoute): Record<string, string[]>[] {
  const session: Record<string, string[]>[] = [{ sessionBearer: [] }, { sessionCookie: [] }];
  if (route.transport === 'submission') return [{}, { apiKey: [] }];
  switch (route.access) {
    case 'public':
      return [];
    case 'forms_scope_or_anonymous':
      return [{}, { apiKey: [] }, ...session];
    case 'forms_scope':
      return [{ apiKey: [] }, ...session];
    case 'api_key':
      return [{ apiKey: [] }];
    default:
      return session;
  }
}
