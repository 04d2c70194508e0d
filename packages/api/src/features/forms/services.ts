import type { CaptchaVerifier } from './captcha.ts';
import type { FormCache } from './form-cache.ts';

/** The services the forms feature adds (built by composition/services.ts). */
export interface FormsServices {
  /** Asks a form's captcha provider whether a browser submission's token is good. */
  captcha: CaptchaVerifier;
  /**
   * The forms submissions (and their CORS preflights) are checked against; every other read of a
   * form asks the database. A process that changes a form forgets it here at once.
   */
  formCache: FormCache;
}
