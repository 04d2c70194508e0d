import type { CaptchaProvider } from '@lfk/vocabulary';
import { boundedText } from '../../infrastructure/bounded-text.ts';
import { LazyAgent } from '../../infrastructure/lazy-agent.ts';
import type { Log } from '../../log.ts';

/** Where each provider's siteverify API is, unless the server is told otherwise (`LFK_*_VERIFY_URL`). */
export const CAPTCHA_VERIFY_URLS: Record<CaptchaProvider, string> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
};

/** The form field each provider's widget puts its token in. */
export const CAPTCHA_TOKEN_FIELDS: Record<CaptchaProvider, string> = {
  turnstile: 'cf-turnstile-response',
  hcaptcha: 'h-captcha-response',
  recaptcha: 'g-recaptcha-response',
};

/** How long a provider has to answer before the submission is kept unverified (as spam). */
export const CAPTCHA_TIMEOUT_MS = 5_000;
/** Tokens are about 2 KiB; anything much longer is not one. */
export const CAPTCHA_TOKEN_MAX = 4096;
const ANSWER_MAX_BYTES = 16 * 1024;
/** reCAPTCHA v3 scores a token from 0 (a bot) to 1; below this it is refused, as Google's own examples do. */
const RECAPTCHA_MIN_SCORE = 0.5;

/**
 * Errors that are not the person's: the form's own settings are wrong (its secret, or a secret of
 * another site key), or the provider failed (`internal-error`). What they sent is kept, as spam,
 * rather than refused.
 */
const SETTINGS_ERRORS = new Set(['missing-input-secret', 'invalid-input-secret', 'sitekey-secret-mismatch', 'internal-error']);

export interface CaptchaCheck {
  provider: CaptchaProvider;
  secret: string;
  siteKey: string;
  token: string;
  remoteIp: string;
  /** The origin the form was sent from: a token solved on another site is refused. */
  origin: string | undefined;
}

/**
 * What the provider said: the token is good, it is refused (missing, malformed, used, expired, of
 * another site), or it could not be verified (the provider was unreachable, slow, or refused the
 * form's own secret).
 */
export type CaptchaVerdict = { outcome: 'passed' } | { outcome: 'refused'; reason: string } | { outcome: 'unverified'; reason: string };

interface SiteverifyAnswer {
  success?: unknown;
  'error-codes'?: unknown;
  hostname?: unknown;
  score?: unknown;
}

export interface CaptchaSettings {
  verifyUrls: Record<CaptchaProvider, string>;
  timeoutMs: number;
}

/** Asks captcha providers whether a token is good, over their siteverify APIs (server to server). */
export class CaptchaVerifier {
  readonly #settings: CaptchaSettings;
  readonly #log: Log;
  readonly #pool: LazyAgent;

  constructor(settings: CaptchaSettings, log: Log) {
    this.#settings = settings;
    this.#log = log;
    this.#pool = new LazyAgent(settings.timeoutMs);
  }

  async verify(check: CaptchaCheck): Promise<CaptchaVerdict> {
    const form = new URLSearchParams({ secret: check.secret, response: check.token, remoteip: check.remoteIp });
    // hCaptcha checks the token against the site key when told it; the others tell the hostname.
    if (check.provider === 'hcaptcha') form.set('sitekey', check.siteKey);
    let answer: SiteverifyAnswer;
    try {
      const { request, agent } = await this.#pool.ready();
      const response = await request(this.#settings.verifyUrls[check.provider], {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        dispatcher: agent,
        signal: AbortSignal.timeout(this.#settings.timeoutMs),
      });
      const text = await boundedText(response.body, ANSWER_MAX_BYTES);
      if (response.statusCode !== 200) return this.#unverified(check.provider, `answered ${response.statusCode}`);
      answer = JSON.parse(text) as SiteverifyAnswer;
    } catch (error) {
      return this.#unverified(check.provider, error instanceof Error ? (error.name === 'TimeoutError' ? 'timeout' : error.message) : String(error));
    }
    if (typeof answer !== 'object' || answer === null) return this.#unverified(check.provider, 'answered something other than a JSON object');
    const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'].map(String) : [];
    if (answer.success !== true) {
      const settingsError = codes.find((code) => SETTINGS_ERRORS.has(code));
      if (settingsError) return this.#unverified(check.provider, settingsError);
      return { outcome: 'refused', reason: codes.join(', ') || 'not successful' };
    }
    if (typeof answer.score === 'number' && answer.score < RECAPTCHA_MIN_SCORE) return { outcome: 'refused', reason: `score ${answer.score}` };
    const origin = check.origin === undefined ? null : URL.parse(check.origin);
    if (typeof answer.hostname === 'string' && origin && answer.hostname.toLowerCase() !== origin.hostname.toLowerCase()) {
      return { outcome: 'refused', reason: 'solved on another site' };
    }
    return { outcome: 'passed' };
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  #unverified(provider: CaptchaProvider, reason: string): CaptchaVerdict {
    // Once per submission kept unverified: an operator sees the provider (or a form's secret) failing.
    this.#log.warn({ provider, reason }, 'captcha could not be verified; the submission is kept as spam (captcha_unverified)');
    return { outcome: 'unverified', reason };
  }
}
