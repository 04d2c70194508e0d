import type { SpamReasonEntry, SubmissionFormReading } from '@lfk/db';
import { type ContentVerdict, judgeMessage, messageOf } from '@lfk/spam-filter';
import type { SpamReason, SubmissionStatus } from '@lfk/vocabulary';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { CAPTCHA_TOKEN_FIELDS, CAPTCHA_TOKEN_MAX } from '../forms/captcha.ts';
import { captchaSecretContext, spamFilterOf } from '../forms/inbox-settings.ts';
import type { RspamdVerdict } from './rspamd.ts';

/** What a submission is stored as. */
export interface Verdict {
  status: SubmissionStatus;
  spamReason: SpamReason | null;
  /** The content filter's score and reasons; null when the form's filter is off, or a trap decided first. */
  spamScore: number | null;
  spamReasons: SpamReasonEntry[] | null;
}

/** What the traps (honeypot, captcha) decided. */
type TrapVerdict = { status: 'ok'; spamReason: null } | { status: 'spam'; spamReason: SpamReason };
const PASSED: TrapVerdict = { status: 'ok', spamReason: null };
const UNSCORED = { spamScore: null, spamReasons: null };

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
 * Submissions with a key skip the captcha: a server has no widget to solve. What passes the traps
 * is read by the content filter (unless the form turned it off): above the form's threshold it is
 * spam, `content`. Its score and reasons are kept either way.
 */
export async function judge(
  ctx: Context,
  form: SubmissionFormReading,
  source: 'browser' | 'api_key',
  sent: SeparatedValues,
  values: Readonly<Record<string, unknown>>,
): Promise<Verdict> {
  if (sent.honeypotFilled) return { status: 'spam', spamReason: 'honeypot', ...UNSCORED };
  const trapped = await captchaVerdict(ctx, form, source, sent);
  const filter = spamFilterOf(form);
  if (!filter.enabled) return { ...trapped, ...UNSCORED };
  const message = messageOf(form.schema, values);
  const [learned, engine] = await Promise.all([
    form.workspace ? ctx.services.spamLearnings.of(form.workspace.id) : undefined,
    ctx.services.rspamd?.check(message, ctx.ip) ?? null,
  ]);
  const sightings = { forms: ctx.services.messageSightings.note(form.id, message) };
  const content = withRspamd(judgeMessage(message, learned, sightings), engine);
  const scored = { spamScore: content.score, spamReasons: content.reasons };
  if (trapped.status === 'spam') return { ...trapped, ...scored };
  return content.score > filter.threshold ? { status: 'spam', spamReason: 'content', ...scored } : { ...PASSED, ...scored };
}

async function captchaVerdict(ctx: Context, form: SubmissionFormReading, source: 'browser' | 'api_key', sent: SeparatedValues): Promise<TrapVerdict> {
  if (source !== 'browser' || !form.captchaProvider || !form.captchaSecretSealed || !form.captchaSiteKey) return PASSED;
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
  return verdict.outcome === 'passed' ? PASSED : { status: 'spam', spamReason: 'captcha_unverified' };
}

/**
 * rspamd's verdict folded into the filter's: its score as a share of its own spam score (capped at
 * 1), and the higher of the two kept. rspamd can only add suspicion; a reason says what it saw.
 */
function withRspamd(verdict: ContentVerdict, engine: RspamdVerdict | null): ContentVerdict {
  if (engine === null || engine.requiredScore <= 0) return verdict;
  const share = Math.round(Math.min(1, Math.max(0, engine.score / engine.requiredScore)) * 1000) / 1000;
  if (share <= verdict.score) return verdict;
  const symbols = engine.symbols.slice(0, 3).join(', ');
  const reason = {
    code: 'rspamd' as const,
    message:
      `rspamd scored it ${engine.score.toFixed(1)} (spam from ${engine.requiredScore.toFixed(1)}; its action: ${engine.action})` +
      `${symbols ? `: ${symbols}` : ''}.`,
  };
  return { score: share, reasons: [...verdict.reasons, reason] };
}
