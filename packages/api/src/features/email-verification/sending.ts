import { EmailVerification, type IForm, type IUser, Membership } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Services } from '../../context.ts';
import { generateVerificationToken } from '../../credentials/tokens.ts';
import { accountVerificationEmail, verificationEmail } from './email.ts';
import { markNotifyEmailVerified } from './notify-email.ts';
import { ApiError } from '../../errors.ts';
import { enqueueEmail, spendUnasked, type UnaskedAllowance } from '../../infrastructure/outbox.ts';

export const VERIFICATION_TTL_MS = 24 * 3600 * 1000;

/** `ada@example.com` → `a***@example.com`: enough to recognise, not enough to harvest. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, 1)}***${address.slice(at)}`;
}

/**
 * Sends a new verification link to one of the form's addresses. Earlier links of that address die
 * with it. Everything is queued on `em` and written by its next flush, the email included. The
 * address did not ask for it: past its allowance of such mail, `429 rate_limited`.
 */
export async function sendVerification(em: EntityManager, services: Services, form: IForm, to: string) {
  const unasked = await spendUnasked(services.rateLimits, to, em);
  const now = services.now();
  const { token, hash } = generateVerificationToken();
  const expiresAt = new Date(now.getTime() + VERIFICATION_TTL_MS);
  await em.getRepository(EmailVerification).replaceForForm({ formId: form.id, email: to, tokenHash: hash, expiresAt });
  form.verificationSentAt = now;
  enqueueEmail(em, {
    ...verificationEmail({
      to,
      formName: form.name,
      link: `${services.publicUrl}/v1/email-verifications/${token}`,
      validHours: VERIFICATION_TTL_MS / 3600_000,
    }),
    secret: { token, box: services.secretBox },
    unasked,
  });
}

/**
 * Starts verifying these of the form's addresses: one a member of the form's workspace has
 * verified as their account's is verified at once; one a member has yet to confirm waits for that
 * (the account's link, already sent, verifies it too: one link to follow, not two); one whose link
 * for this form is still waiting (taken off the list and put back) keeps it, and is sent nothing;
 * any other is sent a link. Answers whether an email was queued.
 */
export async function verifyNotifyEmails(em: EntityManager, services: Services, form: IForm, addresses: readonly string[]): Promise<boolean> {
  let queued = false;
  for (const to of addresses) {
    const member = form.workspace ? await em.getRepository(Membership).memberAddress(form.workspace.id, to) : null;
    if (member === 'verified') {
      markNotifyEmailVerified(form, to);
    } else if (member === null && !(await em.getRepository(EmailVerification).isWaitingForForm(form.id, to, services.now()))) {
      await sendVerification(em, services, form, to);
      queued = true;
    }
  }
  return queued;
}

/**
 * Sends a new link for the account's own address (at sign-up, or asked again), with the allowance
 * it spent of that address's unasked mail (whoever signs up names the address). Earlier links die with it.
 */
export async function sendAccountVerification(em: EntityManager, services: Services, user: IUser, unasked: UnaskedAllowance): Promise<void> {
  const now = services.now();
  const { token, hash } = generateVerificationToken();
  const expiresAt = new Date(now.getTime() + VERIFICATION_TTL_MS);
  await em.getRepository(EmailVerification).replaceForUser({ userId: user.id, email: user.email, tokenHash: hash, expiresAt });
  enqueueEmail(em, {
    ...accountVerificationEmail({ to: user.email, link: `${services.publicUrl}/v1/email-verifications/${token}`, validHours: VERIFICATION_TTL_MS / 3600_000 }),
    secret: { token, box: services.secretBox },
    unasked,
  });
}

/** Throws `rate_limited` while the last verification email (of a form, or an account) is younger than the interval. */
export function assertResendAllowed(services: Services, sentAt: Date | null): void {
  if (!sentAt) return;
  const now = services.now();
  const waitMs = sentAt.getTime() + services.verifyResendIntervalMs - now.getTime();
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new ApiError('rate_limited', {
      message: `A verification email was sent recently. Retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      headers: { 'retry-after': String(seconds) },
    });
  }
}
