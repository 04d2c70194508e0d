import { AuditEvent, Membership, Passkey, RecoveryCode, User } from '@lfk/db';
import type { AuditAction, SecondFactor } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { Services } from '../../context.ts';
import { insertEmail } from '../../infrastructure/outbox.ts';
import { accountLink } from '../../infrastructure/dashboard-links.ts';
import type { Actor } from '../../trpc.ts';
import { type FactorChange, factorChangedEmail } from './emails.ts';

/** The factors a sign-in of this account can be completed with: none means a password is enough. */
export async function factorsOf(em: EntityManager, userId: string): Promise<SecondFactor[]> {
  const [totp, passkeys, codes] = await Promise.all([
    em.getRepository(User).totpOf(userId),
    em.getRepository(Passkey).countOf(userId),
    em.getRepository(RecoveryCode).remainingOf(userId),
  ]);
  if (!totp && passkeys === 0) return [];
  return [...(totp ? (['totp'] as const) : []), ...(passkeys > 0 ? (['passkey'] as const) : []), ...(codes > 0 ? (['recovery_code'] as const) : [])];
}

const AUDIT_ACTION: Record<FactorChange['kind'], AuditAction> = {
  totp_enabled: 'two_factor.totp_enabled',
  totp_disabled: 'two_factor.totp_disabled',
  passkey_added: 'two_factor.passkey_added',
  passkey_removed: 'two_factor.passkey_removed',
  recovery_codes_regenerated: 'two_factor.recovery_codes_regenerated',
  recovery_code_used: 'two_factor.recovery_code_used',
};

/**
 * A change to an account's factors is told where it matters: an audit event in every workspace
 * of the person (their fellow owners see it), and an email to the account, in `em`'s transaction.
 */
export async function recordFactorChange(
  em: EntityManager,
  services: Pick<Services, 'now' | 'publicUrl'>,
  user: { id: string; email: string },
  actor: Actor,
  change: FactorChange,
): Promise<void> {
  const data = 'name' in change ? { name: change.name } : 'remaining' in change ? { remaining: change.remaining } : {};
  const audit = em.getRepository(AuditEvent);
  for (const { workspaceId } of await em.getRepository(Membership).allOf(user.id)) {
    audit.record({ workspaceId, action: AUDIT_ACTION[change.kind], actor, target: { type: 'user', id: user.id }, data });
  }
  await em.flush();
  await insertEmail(em, factorChangedEmail({ to: user.email, change, at: services.now(), accountUrl: accountLink(services.publicUrl) }));
}
