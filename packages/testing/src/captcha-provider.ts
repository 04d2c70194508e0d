import { startLocalHttp } from './local-http.ts';

/** The secret the fake provider takes; any other is answered `invalid-input-secret`, as the real ones do. */
export const CAPTCHA_SECRET = 'fake-provider-secret';
export const CAPTCHA_SITE_KEY = 'fake-site-key';

/** One siteverify request as the provider got it (the form fields lfk sent). */
export interface Siteverify {
  path: string;
  params: Record<string, string>;
}

export interface CaptchaProvider {
  /** The siteverify URL of each provider, all answered by this one fake: `LFK_*_VERIFY_URL`. */
  env: Record<string, string>;
  requests: Siteverify[];
  close(): Promise<void>;
}

/**
 * A captcha provider's siteverify API on 127.0.0.1, answering as Turnstile, hCaptcha and reCAPTCHA
 * do, by the token's first word: `pass-…` is good once (then `timeout-or-duplicate`), `elsewhere-…`
 * was solved on another site (its hostname), `bad-…` is refused, `lowscore-…` is a reCAPTCHA v3
 * score of 0.1, `down-…` answers 503, and `hang-…` never answers.
 */
export async function startCaptchaProvider(siteHostname = 'shop.example'): Promise<CaptchaProvider> {
  const used = new Set<string>();
  const requests: Siteverify[] = [];
  const local = await startLocalHttp((req, body, res, hang) => {
    const params = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
    requests.push({ path: req.url ?? '', params });
    const json = (answer: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    const token = params.response ?? '';
    if (params.secret !== CAPTCHA_SECRET) return json({ success: false, 'error-codes': ['invalid-input-secret'] });
    if (token.startsWith('hang-')) return hang();
    if (token.startsWith('down-')) return void res.writeHead(503).end('unavailable');
    if (token.startsWith('bad-')) return json({ success: false, 'error-codes': ['invalid-input-response'] });
    if (used.has(token)) return json({ success: false, 'error-codes': ['timeout-or-duplicate'] });
    used.add(token);
    if (token.startsWith('elsewhere-')) return json({ success: true, hostname: 'evil.example' });
    if (token.startsWith('lowscore-')) return json({ success: true, hostname: siteHostname, score: 0.1 });
    if (token.startsWith('pass-')) return json({ success: true, hostname: siteHostname, challenge_ts: new Date().toISOString() });
    return json({ success: false, 'error-codes': ['invalid-input-response'] });
  });
  return {
    env: {
      LFK_TURNSTILE_VERIFY_URL: `${local.base}/turnstile/v0/siteverify`,
      LFK_HCAPTCHA_VERIFY_URL: `${local.base}/hcaptcha/siteverify`,
      LFK_RECAPTCHA_VERIFY_URL: `${local.base}/recaptcha/api/siteverify`,
    },
    requests,
    close: local.close,
  };
}
