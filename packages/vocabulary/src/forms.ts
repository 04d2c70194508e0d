export const FORM_STATES = ['unclaimed', 'claimed'] as const;
export type FormState = (typeof FORM_STATES)[number];

/** Who may submit to a form: any browser on an allowed origin, or only a caller with a key. */
export const SUBMISSION_MODES = ['browser', 'api_key'] as const;
export type SubmissionMode = (typeof SUBMISSION_MODES)[number];

export const FIELD_TYPES = ['text', 'textarea', 'email', 'number', 'url', 'tel', 'date', 'checkbox', 'select', 'file'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The captcha services a form may require of browser submissions, verified server-side. */
export const CAPTCHA_PROVIDERS = ['turnstile', 'hcaptcha', 'recaptcha'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/** The files a form's submissions export to. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A form's `retention_days`: submissions older than this are deleted (null keeps them). */
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;
