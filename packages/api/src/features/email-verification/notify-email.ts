import type { IForm } from '@lfk/db';

// A form's notify_emails and where its notifications go. Each address must be verified before mail
// goes to it; while none of a changed list is, the addresses verified before the change keep getting
// them (`notifyFallback`), so that changing the list never silently stops notifications.

type Notifying = Pick<IForm, 'notifyEmails' | 'notifyFallback'>;

/** Where a submission's notifications go now: the verified addresses, else those kept meanwhile, else nowhere. */
export function notifiedAddresses(form: Notifying): string[] {
  const verified = form.notifyEmails.filter((address) => address.verified).map((address) => address.email);
  return verified.length > 0 ? verified : (form.notifyFallback ?? []);
}

/** One of the form's addresses is verified: notifications go to it, and the addresses kept meanwhile are let go. */
export function markNotifyEmailVerified(form: Notifying, email: string): void {
  form.notifyEmails = form.notifyEmails.map((address) => (address.email === email ? { email, verified: true } : address));
  form.notifyFallback = null;
}

/**
 * Sets the form's addresses (empty: no notifications). An address verified before (on the list,
 * or kept meanwhile) stays verified; while none of the new list is verified, the addresses
 * notified until now keep the notifications. Answers the new addresses to be verified (one
 * already waiting keeps its link).
 */
export function changeNotifyEmails(form: Notifying, next: readonly string[]): string[] {
  const notifiedUntilNow = notifiedAddresses(form);
  const listedBefore = new Set(form.notifyEmails.map((address) => address.email));
  const verifiedBefore = new Set([...form.notifyEmails.filter((address) => address.verified).map((address) => address.email), ...(form.notifyFallback ?? [])]);
  form.notifyEmails = next.map((email) => ({ email, verified: verifiedBefore.has(email) }));
  const anyVerified = form.notifyEmails.some((address) => address.verified);
  form.notifyFallback = next.length === 0 || anyVerified || notifiedUntilNow.length === 0 ? null : notifiedUntilNow;
  return form.notifyEmails.filter((address) => !address.verified && !listedBefore.has(address.email)).map((address) => address.email);
}

/** Whether `email` is one of the form's addresses now: a link sent to an address since removed proves nothing. */
export const isNotifyEmailOf = (form: Notifying, email: string) => form.notifyEmails.some((address) => address.email === email);
