import type { EntityManager } from '@mikro-orm/sql';
import type { CaptchaVerifier } from './captcha.ts';
import type { FormCache } from './form-cache.ts';

/**
 * Queues what a form being closed or reopened by a person sends, in `em`'s transaction; true when
 * anything was queued. The webhooks feature provides it (forms does not import webhooks, which reads forms).
 */
export type FormStateEvents = (em: EntityManager, form: StateChangedForm, type: 'form.closed' | 'form.reopened', at: Date) => Promise<boolean>;

type StateChangedForm = { id: string; name: string; closedMessage?: string | null | undefined };

/** The services the forms feature adds (built by its feature.ts). */
export interface FormsServices {
  /** Asks a form's captcha provider whether a browser submission's token is good. */
  captcha: CaptchaVerifier;
  /**
   * The forms submissions (and their CORS preflights) are checked against; every other read of a
   * form asks the database. A process that changes a form forgets it here at once.
   */
  formCache: FormCache;
  /** What a form closed or reopened by a person sends (webhooks' `queueFormStateChanged`). */
  formStateEvents: FormStateEvents;
}
