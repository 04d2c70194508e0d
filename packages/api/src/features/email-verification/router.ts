import { EmailVerification, Form, type IEmailVerification, User } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { sha256 } from '../../credentials/secrets.ts';
import { isWellFormedVerificationToken } from '../../credentials/tokens.ts';
import { ApiError } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { emailVerificationInput, emailVerified } from './schemas.ts';
import { isNotifyEmailOf, markNotifyEmailVerified } from './notify-email.ts';
import { publicProcedure, router } from '../../trpc.ts';

const invalidLink = () =>
  new ApiError('not_found', { message: 'This verification link is not valid: it was already used, replaced by a newer one, or has expired.' });

/** What a link is for, and the row it verifies. */
type Subject =
  | { kind: 'form'; id: string; name: string; holds(email: string): boolean; verify(email: string, now: Date): void }
  | { kind: 'account'; id: string; holds(email: string): boolean; verify(email: string, now: Date): void };

async function subjectOf(em: EntityManager, link: IEmailVerification, lock: boolean): Promise<Subject | null> {
  if (link.form) {
    const forms = em.getRepository(Form);
    const form = lock ? await forms.findOneForUpdate({ id: link.form.id }) : await forms.findOne({ id: link.form.id });
    if (!form) return null;
    return {
      kind: 'form',
      id: form.id,
      name: form.name,
      holds: (email) => isNotifyEmailOf(form, email),
      verify: (email) => markNotifyEmailVerified(form, email),
    };
  }
  const users = em.getRepository(User);
  const user = lock ? await users.findOneForUpdate({ id: link.user!.id }) : await users.findOne({ id: link.user!.id });
  if (!user) return null;
  return { kind: 'account', id: user.id, holds: (email) => user.email === email, verify: (_email, now) => (user.emailVerifiedAt ??= now) };
}

/**
 * The link behind `token` and what it verifies, if the link still works: unused, unexpired, the
 * newest of its form's address or its account (older ones are deleted), for an address the form
 * or account has now. `lock` holds the rows until the transaction ends, so that two posts of one
 * link verify once.
 */
async function workingLink(em: EntityManager, token: string, lock: boolean, now: Date) {
  if (!isWellFormedVerificationToken(token)) throw invalidLink();
  const tokenHash = sha256(token);
  let link = await em.getRepository(EmailVerification).findByTokenHash(tokenHash);
  if (!link) throw invalidLink();
  // The subject's row first, then the link's: the order an update of the form takes them in, so a
  // confirmation racing a notify_email change waits for it (no deadlock) and then sees it.
  const subject = await subjectOf(em, link, lock);
  if (!subject) throw invalidLink();
  if (lock) {
    link = await em.getRepository(EmailVerification).lockByTokenHash(tokenHash);
    if (!link) throw invalidLink();
  }
  if (link.usedAt !== null || link.expiresAt <= now) throw invalidLink();
  // The address changed (or left the form's list) since this link was sent: it proves nothing now.
  if (!subject.holds(link.email)) throw invalidLink();
  return { link, subject };
}

const toWire = (link: IEmailVerification, subject: Subject) => ({
  email: link.email,
  form: subject.kind === 'form' ? { id: subject.id, name: subject.name } : null,
});

export const emailVerificationsRouter = router({
  /**
   * What a link would verify, changing nothing: opening a link (GET, HEAD) is also what link
   * checkers and mail scanners do, so only the page's button (`confirm`) verifies.
   */
  preview: publicProcedure
    .meta(
      rest('GET /v1/email-verifications/:token', 200, 'Open a verification link: a small HTML page with a "Verify" button; GET and HEAD change nothing', {
        transport: 'html',
        errors: ['not_found'],
      }),
    )
    .input(emailVerificationInput)
    .output(emailVerified)
    .query(async ({ ctx, input }) => {
      const { link, subject } = await workingLink(ctx.em, input.token, false, ctx.services.now());
      return toWire(link, subject);
    }),

  /**
   * Verifies the address a link was sent to: single use, 24 hours, the newest link only. An
   * account's address, once verified, also verifies the forms of its workspaces that notify it.
   */
  confirm: publicProcedure
    .meta(
      rest('POST /v1/email-verifications/:token', 200, 'The "Verify" button: marks the address verified (the link works once) and answers a small HTML page', {
        transport: 'html',
        errors: ['not_found'],
      }),
    )
    .input(emailVerificationInput)
    .output(emailVerified)
    .mutation(async ({ ctx, input }) => {
      const { answer, verifiedForms } = await ctx.em.transactional(async (em) => {
        const now = ctx.services.now();
        const { link, subject } = await workingLink(em, input.token, true, now);
        link.usedAt = now;
        subject.verify(link.email, now);
        const verifiedForms = subject.kind === 'account' ? await em.getRepository(Form).verifyNotifyEmailOfMember(subject.id, link.email) : [subject.id];
        return { answer: toWire(link, subject), verifiedForms };
      });
      // Their submissions notify the address from now on.
      for (const formId of verifiedForms) ctx.services.formCache.forget(formId);
      return answer;
    }),
});
