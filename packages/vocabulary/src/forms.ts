export const FORM_STATES = ['unclaimed', 'claimed'] as const;
export type FormState = (typeof FORM_STATES)[number];

/** Who may submit to a form: any browser on an allowed origin, or only a caller with a key. */
export const SUBMISSION_MODES = ['browser', 'api_key'] as const;
export type SubmissionMode = (typeof SUBMISSION_MODES)[number];

/**
 * What a form does with a submitted field its schema does not name: refuse the submission (422),
 * keep it (stored as text, after the form's own fields), or drop it silently.
 */
export const UNKNOWN_FIELD_POLICIES = ['reject', 'keep', 'ignore'] as const;
export type UnknownFieldPolicy = (typeof UNKNOWN_FIELD_POLICIES)[number];

export const FIELD_TYPES = ['text', 'textarea', 'email', 'number', 'url', 'tel', 'date', 'checkbox', 'select', 'file'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** How long a draft lives after its last save, in days (a form's `drafts.ttl_days`). */
export const DRAFT_TTL_DAYS = { default: 7, min: 1, max: 30 } as const;

/** The most characters a submitted value of these field types may have (an email's and a URL's as trimmed). */
export const FIELD_MAX_LENGTH = { text: 10_000, textarea: 65_536, email: 254, url: 2048 } as const satisfies Partial<Record<FieldType, number>>;

/** The captcha services a form may require of browser submissions, verified server-side. */
export const CAPTCHA_PROVIDERS = ['turnstile', 'hcaptcha', 'recaptcha'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/** The files a form's submissions export to. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A form's `retention_days`: submissions older than this are deleted (null keeps them). */
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;

/**
 * The names of a submission's values that its form's fields do not name (fields kept under
 * `unknown_fields: keep`, or removed from the form since), sorted: shown after the form's own.
 */
export function undeclaredNames(fields: readonly { name: string }[], values: Record<string, unknown>): string[] {
  const declared = new Set(fields.map((field) => field.name));
  return Object.keys(values)
    .filter((name) => !declared.has(name))
    .sort();
}
