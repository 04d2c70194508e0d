import type { SubmissionFormReading } from '@lfk/db';
import type { SpamReason, SubmissionStatus } from '@lfk/vocabulary';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { CAPTCHA_TOKEN_FIELDS, CAPTCHA_TOKEN_MAX } from '../forms/captcha.ts';
import { captchaSecretContext } from '../forms/inbox-settings.ts';

/** What a submission is stored as. */
export interface Verdict {
  status: SubmissionStatus;
  spamReason: SpamReason | null;
}

const REAL: Verdict = { status: 'ok', spamReason: null };

/** A submission's values, and what it carried for the spam checks (not stored, not validated as fields). */
export interface SeparatedValues {
  values: Record<string, unknown>;
  /** The honeypot field had a value: a person never sees it, so a bot filled it in. */
  honeypotFilled: boolean;
  /** The captcha widget's token, as sent (undefined when absent). */
  captchaToken: unknown;
}

const isFilled = (value: unknown) => value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '') && value !== false;

/** Takes the honeypot field and the captcha token out of what was sent, when the form has them. */
export function separateSpamFields(form: SubmissionFormReading, data: Record<string, unknown>): SeparatedValues {
  const tokenField = form.captchaProvider ? CAPTCHA_TOKEN_FIELDS[form.captchaProvider] : null;
  if (!form.honeypot && !tokenField) return { values: data, honeypotFilled: false, captchaToken: undefined };
  const values: Record<string, unknown> = {};
  let honeypotFilled = false;
  let captchaToken: unknown;
  for (const [name, value] of Object.entries(data)) {
    if (name === form.honeypot) honeypotFilled = isFilled(value);
    else if (name === tokenField) captchaToken = value;
    else values[name] = value;
  }
  return { values, honeypotFilled, captchaToken };
}

/**
 * Decides whether a submission is spam. A filled honeypot is. A browser submission to a form with
 * a captcha needs a token the provider accepts: none, or one refused, is `captcha_failed` (nothing
 * is stored); a provider that cannot be asked keeps the submission, as spam, `captcha_unverified`.
 * Submissions with a key skip the captcha: a server has no widget to solve.
 */
export async function judge(ctx: Context, form: SubmissionFormReading, source: 'browser' | 'api_key', sent: SeparatedValues): Promise<Verdict> {
  if (sent.honeypotFilled) return { status: 'spam', spamReason: 'honeypot' };
  if (source !== 'browser' || !form.captchaProvider || !form.captchaSecretSealed || !form.captchaSiteKey) return REAL;
  const token = sent.captchaToken;
  if (typeof token !== 'string' || token.trim() === '') {
    throw new ApiError('captcha_failed', { message: 'The captcha was not completed: complete it and send the form again.' });
  }
  if (token.length > CAPTCHA_TOKEN_MAX) throw new ApiError('captcha_failed');
  const verdict = await ctx.services.captcha.verify({
    provider: form.captchaProvider,
    secret: ctx.services.secretBox.open(form.captchaSecretSealed, captchaSecretContext(form.id)),
    siteKey: form.captchaSiteKey,
    token,
    remoteIp: ctx.ip,
    origin: ctx.origin,
  });
  if (verdict.outcome === 'refused') throw new ApiError('captcha_failed');
  return verdict.outcome === 'passed' ? REAL : { status: 'spam', spamReason: 'captcha_unverified' };
}
