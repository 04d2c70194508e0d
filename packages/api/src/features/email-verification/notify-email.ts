import type { IForm } from '@lfk/db';

// A form's notify_email and where its notifications go. A changed address must be verified before
// mail goes to it; until then the last verified address keeps getting them (`notifyEmailFallback`),
// so changing the address never silently stops notifications.

type Notifying = Pick<IForm, 'notifyEmail' | 'notifyEmailVerified' | 'notifyEmailFallback'>;

/** Where a submission's notification goes now: the verified notify_email, else the address kept meanwhile, else nowhere. */
export function notificationsTo(form: Notifying): string | null {
  return form.notifyEmailVerified ? (form.notifyEmail ?? null) : (form.notifyEmailFallback ?? null);
}

/** The form's notify_email is verified: notifications go to it, and the address kept meanwhile is let go. */
export function markNotifyEmailVerified(form: Notifying): void {
  form.notifyEmailVerified = true;
  form.notifyEmailFallback = null;
}

/**
 * Sets a new notify_email (null: no notifications). The address notifications went to until now,
 * if verified, keeps them until the new one is verified; going back to it needs no verification.
 * Answers whether the new address still has to be verified.
 */
export function changeNotifyEmail(form: Notifying, next: string | null): boolean {
  const keeping = notificationsTo(form);
  form.notifyEmail = next;
  if (next === null) {
    form.notifyEmailVerified = false;
    form.notifyEmailFallback = null;
    return false;
  }
  if (next === keeping) {
    markNotifyEmailVerified(form);
    return false;
  }
  form.notifyEmailVerified = false;
  form.notifyEmailFallback = keeping;
  return true;
}
