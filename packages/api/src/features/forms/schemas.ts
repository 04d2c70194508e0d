import {
  CAPTCHA_PROVIDERS,
  DRAFT_TTL_DAYS,
  FIELD_TYPES,
  FILE_FIELD_LIMITS,
  FORM_STATES,
  RETENTION_DAYS,
  SUBMISSION_MODES,
  TEXT_LIMITS,
  UNKNOWN_FIELD_POLICIES,
} from '@lfk/vocabulary';
import { z } from 'zod';
import { autoReply, autoReplyInput } from '../auto-replies/schemas.ts';
import { email, hasControlCharacters, idParam, listInput, NO_CONTROL_CHARACTERS, text, timeInput, timestamp, workspaceScoped } from '../../common-schemas.ts';

export const fieldType = z.enum(FIELD_TYPES).meta({ id: 'FieldType' });

/** A MIME type a file field accepts: `type/subtype` or `type/*`, lowercase. */
const mimeType = z
  .string()
  .max(100)
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/, 'Must be a MIME type such as application/pdf, or image/* (lowercase).');

export const field = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'Must start with a letter and hold at most 64 letters, digits, "_" or "-".'),
    type: fieldType,
    required: z.boolean().default(false),
    label: text(200).optional(),
    options: z.array(text(200)).min(1).max(100).optional(),
    private: z.boolean().optional().describe('Never kept in a draft (a password, a card number): pages do not save it, and lfk refuses a draft that holds it.'),
    max_size: z
      .int()
      .min(1)
      .max(FILE_FIELD_LIMITS.maxSize)
      .optional()
      .describe(
        `A file field: the most bytes one file may have (default ${FILE_FIELD_LIMITS.defaultMaxSize}, never above the server's \`LFK_MAX_FILE_SIZE\`).`,
      ),
    accept: z
      .array(mimeType)
      .min(1)
      .max(FILE_FIELD_LIMITS.maxAccept)
      .optional()
      .describe('A file field: the types it takes (`application/pdf`, `image/*`), judged by the bytes, not the name; any type when left out.'),
    multiple: z.boolean().optional().describe('A file field: whether it takes several files.'),
    max_files: z
      .int()
      .min(1)
      .max(FILE_FIELD_LIMITS.maxFiles)
      .optional()
      .describe(`A file field that takes several: at most this many (default ${FILE_FIELD_LIMITS.defaultMaxFiles}).`),
  })
  .superRefine((f, ctx) => {
    if (f.type !== 'file') {
      for (const key of ['max_size', 'accept', 'multiple', 'max_files'] as const) {
        if (f[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'Only file fields take this.' });
      }
    } else if (f.max_files !== undefined && !f.multiple && f.max_files !== 1) {
      ctx.addIssue({ code: 'custom', path: ['max_files'], message: 'A field that takes one file (multiple is false) takes max_files 1 only.' });
    }
    if (f.type === 'select') {
      if (!f.options) ctx.addIssue({ code: 'custom', path: ['options'], message: 'A select field needs options.' });
      else if (new Set(f.options).size !== f.options.length) {
        ctx.addIssue({ code: 'custom', path: ['options'], message: 'Options must be unique.' });
      }
    } else if (f.options) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Only select fields take options.' });
    }
  });
export type Field = z.infer<typeof field>;

export const formSchema = z
  .array(field)
  .min(1, 'A form needs at least one field.')
  .max(100, 'A form has at most 100 fields.')
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, index) => {
      if (seen.has(f.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: 'Field names must be unique.' });
      seen.add(f.name);
    });
  });

/** The most addresses a form's submissions are emailed to. */
export const NOTIFY_EMAILS_MAX = 5;

/** The longest URL lfk stores, measured as stored (normalised). */
const URL_MAX = TEXT_LIMITS.url;

/**
 * A URL as sent. Control characters are refused here because the URL parser would drop tabs and
 * line breaks silently, storing something other than what was typed.
 */
const urlText = z
  .string()
  .max(URL_MAX)
  .refine((value) => !hasControlCharacters(value), NO_CONTROL_CHARACTERS);

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * An exact origin, stored normalised as scheme://host[:port] (a punycode host). A bare trailing
 * `/` is taken (it is how a browser's address bar shows one), nothing more of a path.
 */
export const origin = urlText.transform((value, ctx) => {
  const url = parseUrl(value);
  if (!url) {
    ctx.addIssue({ code: 'custom', message: 'Must be an origin such as https://example.com.' });
    return z.NEVER;
  }
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    /[?#]/.test(value) ||
    value.endsWith('//')
  ) {
    ctx.addIssue({ code: 'custom', message: 'Must be an origin (scheme://host[:port]) with no path, query or credentials.' });
    return z.NEVER;
  }
  return url.origin;
});

/**
 * An http(s) URL, stored normalised (`new URL(x).href`: punycode host, percent-encoded path), so
 * what is stored can be sent as a `Location` header as is; it must fit its column once normalised.
 */
export const httpUrl = urlText
  .transform((value, ctx) => {
    const url = parseUrl(value);
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'Must be an http or https URL.' });
      return z.NEVER;
    }
    return url.href;
  })
  .pipe(z.string().max(URL_MAX, `Must be at most ${URL_MAX} characters once normalised (percent-encoded).`));

export const submissionMode = z.enum(SUBMISSION_MODES).meta({ id: 'SubmissionMode' });
export const unknownFieldPolicy = z
  .enum(UNKNOWN_FIELD_POLICIES)
  .meta({ id: 'UnknownFieldPolicy' })
  .describe(
    'What a submitted field the schema does not name gets: `reject` answers 422 `validation_failed` naming it; ' +
      "`keep` stores it as text after the form's own fields (shown, exported and delivered with them); `ignore` drops it.",
  );
export const formState = z.enum(FORM_STATES).meta({ id: 'FormState' });

const allowedOrigins = z
  .array(origin)
  .max(50, 'At most 50 origins.')
  .transform((origins) => [...new Set(origins)]);

export const captchaProvider = z.enum(CAPTCHA_PROVIDERS).meta({ id: 'CaptchaProvider' });

/** A secret as the provider issued it: one line of printable text, never trimmed. */
const captchaSecret = z
  .string()
  .min(1, 'Must not be empty.')
  .max(TEXT_LIMITS.captchaSecret, `Must be at most ${TEXT_LIMITS.captchaSecret} characters.`)
  .refine((value) => !hasControlCharacters(value) && value.trim() === value, 'Must be one line without surrounding spaces.');

const captchaInput = z.strictObject({
  provider: captchaProvider,
  site_key: text(TEXT_LIMITS.captchaSiteKey),
  secret: captchaSecret
    .optional()
    .describe('Write-only, stored encrypted. Required unless the form already has a captcha of the same provider, whose secret is kept.'),
});

const spamInput = z
  .strictObject({
    // Like a field's name, and may start with "_" as the usual `_gotcha` does.
    honeypot: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, 'Must start with a letter or "_" and hold at most 64 letters, digits, "_" or "-".')
      .nullable()
      .optional()
      .describe('A field name outside the schema (such as `_gotcha`): a submission with a value in it is stored as spam.'),
    captcha: captchaInput.nullable().optional().describe('A captcha browser submissions must pass; null removes it.'),
  })
  .meta({ id: 'SpamSettingsInput' });
export type SpamInput = z.infer<typeof spamInput>;

const formFields = {
  name: text(TEXT_LIMITS.formName),
  schema: formSchema,
  unknown_fields: unknownFieldPolicy,
  submission_mode: submissionMode,
  allowed_origins: allowedOrigins,
  project_id: idParam,
  redirect_url: httpUrl.nullable(),
  error_redirect_url: httpUrl
    .nullable()
    .describe(
      'Where a refused HTML form post sends the visitor (303), instead of lfk’s page: ' +
        'with `?error=<code>` and, when fields are at fault, `&fields=<comma-separated names>`.',
    ),
  notify_email: email
    .nullable()
    .describe('One address to email each submission to (once verified): the same as `notify_emails` of it alone; null stops the emails.'),
  notify_emails: z
    .array(email)
    .max(NOTIFY_EMAILS_MAX, `At most ${NOTIFY_EMAILS_MAX} addresses.`)
    .transform((addresses) => [...new Set(addresses)])
    .describe(
      `Up to ${NOTIFY_EMAILS_MAX} addresses to email each submission to, each once it is verified ` +
        "(a new one is sent a link; a member's own verified address is verified at once); empty stops the emails. Give this or `notify_email`, not both.",
    ),
  spam: spamInput,
  auto_reply: autoReplyInput
    .nullable()
    .describe(
      'An email to the person who submitted, to the address in one of the form’s email fields: never for spam; ' +
        'limited per address across lfk and per form (by default 5 a day and 100 an hour); null removes it. A claimed form only.',
    ),
  closed: z.boolean().describe('Closed by hand: submissions are refused with `403 form_closed`.'),
  closes_at: timeInput.nullable().describe('When the form closes by itself; must be in the future.'),
  max_submissions: z
    .int()
    .min(1, 'Must be at least 1.')
    .max(10_000_000)
    .nullable()
    .describe('The form closes once it holds this many submissions (spam not counted).'),
  closed_message: text(TEXT_LIMITS.closedMessage).nullable().describe('What a person who tries to send the closed form reads.'),
  retention_days: z
    .int()
    .min(RETENTION_DAYS.min, `Must be at least ${RETENTION_DAYS.min}.`)
    .max(RETENTION_DAYS.max, `Must be at most ${RETENTION_DAYS.max}.`)
    .nullable()
    .describe('Submissions older than this many days are deleted; null keeps them.'),
  drafts: z
    .strictObject({
      enabled: z.boolean().optional().describe('Kept as it was when left out (off at first).'),
      ttl_days: z
        .int()
        .min(DRAFT_TTL_DAYS.min, `Must be at least ${DRAFT_TTL_DAYS.min}.`)
        .max(DRAFT_TTL_DAYS.max, `Must be at most ${DRAFT_TTL_DAYS.max}.`)
        .optional()
        .describe(`How many days a draft lives after its last save: kept as it was when left out (${DRAFT_TTL_DAYS.default} at first).`),
      email_link: z
        .boolean()
        .optional()
        .describe(
          'Whether the page may email a visitor a link to finish later (`POST …/drafts/{resume_token}/email`): kept as it was when left out (off at first).',
        ),
    })
    .describe("Whether a page may keep a visitor's answers as a draft (`POST /v1/forms/{form_id}/drafts`), so a closed tab loses nothing."),
  spam_filter: z
    .strictObject({
      enabled: z.boolean().optional().describe('Kept as it was when left out (on at first).'),
      threshold: z
        .number()
        .min(0.01, 'Must be at least 0.01.')
        .max(0.99, 'Must be at most 0.99.')
        .nullable()
        .optional()
        .describe("Above this score a submission goes to spam; null: the shipped model's own threshold. Kept as it was when left out."),
    })
    .describe(
      'The content filter: reads each submission (its words, links, sender and script), scores it 0–1 and sends what scores above the ' +
        "threshold to spam, with its reasons. It learns from the workspace's marks.",
    ),
};

/** Where a form's answers lead and go (its project, redirects, notification, auto-reply): optional on create and update alike. */
const deliverySettings = {
  project_id: formFields.project_id.optional(),
  redirect_url: formFields.redirect_url.optional(),
  error_redirect_url: formFields.error_redirect_url.optional(),
  notify_email: formFields.notify_email.optional(),
  notify_emails: formFields.notify_emails.optional(),
  auto_reply: formFields.auto_reply.optional(),
};

/**
 * The spam and closing settings, optional on create and update alike. `retention_days` is set at
 * creation, and changed later by a member's session only (`PUT …/retention`): lowering it deletes
 * submissions, which a key, that cannot read them, may not do.
 */
const inboxSettings = {
  spam: formFields.spam.optional(),
  closed: formFields.closed.optional(),
  closes_at: formFields.closes_at.optional(),
  max_submissions: formFields.max_submissions.optional(),
  closed_message: formFields.closed_message.optional(),
  drafts: formFields.drafts.optional(),
  spam_filter: formFields.spam_filter.optional(),
};

export const formCreateInput = z.strictObject({
  ...formFields,
  unknown_fields: formFields.unknown_fields.default('reject'),
  submission_mode: formFields.submission_mode.default('browser'),
  allowed_origins: formFields.allowed_origins.default([]),
  ...deliverySettings,
  ...inboxSettings,
  retention_days: formFields.retention_days.optional(),
  /** Required with a session (which workspace?); with a key the key's workspace is used. */
  workspace_id: idParam.optional(),
});
export type FormCreateInput = z.infer<typeof formCreateInput>;

export const formIdInput = z.object({ form_id: idParam });

export const formRetentionInput = z.strictObject({ form_id: idParam, retention_days: formFields.retention_days });

export const formUpdateInput = z.strictObject({
  form_id: idParam,
  name: formFields.name.optional(),
  schema: formFields.schema.optional(),
  unknown_fields: formFields.unknown_fields.optional(),
  submission_mode: formFields.submission_mode.optional(),
  allowed_origins: formFields.allowed_origins.optional(),
  ...deliverySettings,
  ...inboxSettings,
});
export type FormUpdateInput = z.infer<typeof formUpdateInput>;

export const form = z
  .object({
    id: z.string(),
    workspace_id: z.string().nullable(),
    project_id: z.string().nullable(),
    name: z.string(),
    state: formState,
    schema: z.array(
      z
        .object({
          name: z.string(),
          type: fieldType,
          required: z.boolean(),
          label: z.string().optional(),
          options: z.array(z.string()).optional(),
          private: z.boolean().optional(),
          max_size: z.int().optional(),
          accept: z.array(z.string()).optional(),
          multiple: z.boolean().optional(),
          max_files: z.int().optional(),
        })
        .meta({ id: 'FormField' }),
    ),
    unknown_fields: unknownFieldPolicy,
    submission_mode: submissionMode,
    allowed_origins: z.array(z.string()),
    refused_origins: z
      .array(z.object({ origin: z.string(), last_refused_at: timestamp }).meta({ id: 'RefusedOrigin' }))
      .describe(
        'The last 5 origins whose browser submissions or CORS preflights this form refused (`origin_not_allowed`), newest first: ' +
          'the page a form is on, missing from `allowed_origins`, shows up here. Noted at most once a minute per origin.',
      ),
    notify_email: z.string().nullable().describe('The first of `notify_emails`, or null.'),
    notify_email_verified: z.boolean().describe('Whether `notify_email` is verified.'),
    notify_emails: z.array(z.string()).describe('Where submissions are emailed, each once verified.'),
    verified_notify_emails: z.array(z.string()).describe('Those of `notify_emails` that are verified.'),
    notified_addresses: z
      .array(z.string())
      .describe(
        'Where submission emails go now: the verified `notify_emails`; ' +
          'while none of them is, the addresses verified before they were changed, so changing them never silently stops the emails.',
      ),
    notifications_to: z.string().nullable().describe('The first of `notified_addresses`, or null when no email is sent.'),
    redirect_url: z.string().nullable(),
    error_redirect_url: z.string().nullable(),
    spam: z
      .object({
        honeypot: z.string().nullable(),
        captcha: z.object({ provider: captchaProvider, site_key: z.string() }).nullable().describe('The secret is never answered.'),
      })
      .meta({ id: 'SpamSettings' }),
    auto_reply: autoReply.nullable(),
    auto_replies_skipped: z
      .int()
      .describe('Auto-replies not sent because the address stopped them or a limit was reached: someone may be using the form to mail others.'),
    closed: z.boolean(),
    closes_at: timestamp.nullable(),
    max_submissions: z.int().nullable(),
    closed_message: z.string().nullable(),
    retention_days: z.int().nullable(),
    drafts: z.object({ enabled: z.boolean(), ttl_days: z.int(), email_link: z.boolean() }).meta({ id: 'DraftSettings' }),
    spam_filter: z
      .object({ enabled: z.boolean(), threshold: z.number().describe('The threshold in force: the form’s own, or the shipped one.') })
      .meta({ id: 'SpamFilterSettings' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Form' });
export type Form = z.infer<typeof form>;

/** The create response: an anonymous create also carries the claim token, shown this once. */
export const createdForm = form
  .extend({ claim_token: z.string().nullable().optional() })
  .meta({ id: 'CreatedForm', description: 'A new form; made without credentials, it also carries its `claim_token` (`lfc_…`), shown this once.' });
export type CreatedForm = z.input<typeof createdForm>;

export const formListInput = workspaceScoped.extend(listInput.shape);

/** A form in its workspace's list: with how many submissions it holds (spam not counted) and when the last came. */
export const formListItem = form
  .extend({
    submission_count: z.int(),
    last_submission_at: timestamp.nullable(),
    draft_count: z.int().describe('Live drafts: answers visitors began and have not sent (0 when the form keeps none).'),
  })
  .meta({ id: 'FormListItem' });

export const formClaimInput = z.strictObject({
  form_id: idParam,
  claim_token: z.string().max(200),
  workspace_id: idParam,
});
