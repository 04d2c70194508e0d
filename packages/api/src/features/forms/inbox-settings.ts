import type { IForm } from '@lfk/db';
import { defaultThreshold } from '@lfk/spam-filter';
import { DRAFT_TTL_DAYS } from '@lfk/vocabulary';
import type { SecretBox } from '../../credentials/secret-box.ts';
import { invalidField } from '../../errors.ts';
import { CAPTCHA_TOKEN_FIELDS } from './captcha.ts';
import type { SpamInput } from './schemas.ts';

/** Where a form's captcha secret is sealed: bound to the form, so a sealed value copied to another form does not open. */
export const captchaSecretContext = (formId: string) => `forms.captcha_secret:${formId}`;

/** A new form's inbox settings before any are asked for: no spam defence, open, kept forever. */
export const NO_INBOX_SETTINGS = {
  honeypot: null,
  captchaProvider: null,
  captchaSiteKey: null,
  captchaSecretSealed: null,
  closed: false,
  closesAt: null,
  maxSubmissions: null,
  closedMessage: null,
  retentionDays: null,
  drafts: null,
  spamFilter: null,
} satisfies Partial<IForm>;

/** A form's content filter as it applies: on, at the shipped model's threshold, unless the form says otherwise. */
export const spamFilterOf = (form: Pick<IForm, 'spamFilter'>) => ({
  enabled: form.spamFilter?.enabled ?? true,
  threshold: form.spamFilter?.threshold ?? defaultThreshold(),
});

/** The settings a create or update may carry (all optional: what is absent is left as it is). */
export interface InboxSettingsInput {
  spam?: SpamInput;
  closed?: boolean;
  closes_at?: string | null;
  max_submissions?: number | null;
  closed_message?: string | null;
  /** At creation only; later through `setRetention`. */
  retention_days?: number | null;
  drafts?: { enabled?: boolean | undefined; ttl_days?: number | undefined; email_link?: boolean | undefined };
  spam_filter?: { enabled?: boolean | undefined; threshold?: number | null | undefined };
}

/**
 * Applies the spam, closing and retention settings `input` carries to `form`, with the rules a
 * schema cannot check alone: `closes_at` is in the future, the honeypot is not one of the form's
 * fields, a new captcha comes with its secret (sealed here, never stored in the clear). Answers
 * whether `closed` changed.
 */
export function applyInboxSettings(form: IForm, input: InboxSettingsInput, box: SecretBox, now: Date): { closedChanged: boolean } {
  const spam = input.spam;
  if (spam?.honeypot !== undefined) form.honeypot = spam.honeypot;
  if (spam?.captcha === null) {
    form.captchaProvider = null;
    form.captchaSiteKey = null;
    form.captchaSecretSealed = null;
  } else if (spam?.captcha !== undefined) {
    const { provider, site_key: siteKey, secret } = spam.captcha;
    if (secret === undefined && (form.captchaProvider !== provider || form.captchaSecretSealed === null)) {
      throw invalidField('spam.captcha.secret', 'Required: the form has no secret of this provider to keep.');
    }
    form.captchaProvider = provider;
    form.captchaSiteKey = siteKey;
    if (secret !== undefined) form.captchaSecretSealed = box.seal(secret, captchaSecretContext(form.id));
  }
  if (form.honeypot !== null && form.schema.some((field) => field.name === form.honeypot)) {
    throw invalidField('spam.honeypot', 'Must not be the name of one of the form’s fields: people fill those in.');
  }
  // A captcha's widget fills its token field in for every person: as a honeypot, it would catch them all.
  const honeypot = form.honeypot ?? null;
  if (honeypot !== null && (Object.values(CAPTCHA_TOKEN_FIELDS) as string[]).includes(honeypot)) {
    throw invalidField('spam.honeypot', 'Must not be the name of a captcha’s token field.');
  }
  if (input.closes_at !== undefined) {
    const closesAt = input.closes_at === null ? null : new Date(input.closes_at);
    if (closesAt !== null && closesAt.getTime() <= now.getTime()) throw invalidField('closes_at', 'Must be in the future; to close the form now, set closed.');
    form.closesAt = closesAt;
  }
  if (input.max_submissions !== undefined) form.maxSubmissions = input.max_submissions;
  if (input.closed_message !== undefined) form.closedMessage = input.closed_message;
  if (input.retention_days !== undefined) form.retentionDays = input.retention_days;
  if (input.drafts !== undefined) {
    form.drafts = {
      enabled: input.drafts.enabled ?? form.drafts?.enabled ?? false,
      ttl_days: input.drafts.ttl_days ?? form.drafts?.ttl_days ?? DRAFT_TTL_DAYS.default,
      email_link: input.drafts.email_link ?? form.drafts?.email_link ?? false,
    };
  }
  if (input.spam_filter !== undefined) {
    form.spamFilter = {
      enabled: input.spam_filter.enabled ?? form.spamFilter?.enabled ?? true,
      threshold: input.spam_filter.threshold !== undefined ? input.spam_filter.threshold : (form.spamFilter?.threshold ?? null),
    };
  }
  const closedChanged = input.closed !== undefined && input.closed !== form.closed;
  if (input.closed !== undefined) form.closed = input.closed;
  return { closedChanged };
}
