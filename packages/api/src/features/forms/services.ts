import type { CaptchaVerifier } from './captcha.ts';

/** The services the forms feature adds (built by composition/services.ts). */
export interface FormsServices {
  /** Asks a form's captcha provider whether a browser submission's token is good. */
  captcha: CaptchaVerifier;
}
