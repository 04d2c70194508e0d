import type { IEmailVerification } from '../entities/email-verification.ts';
import { newId } from '../ids.ts';
import { BaseRepository } from './base-repository.ts';

export class EmailVerificationRepository extends BaseRepository<IEmailVerification> {
  findByTokenHash(tokenHash: string): Promise<IEmailVerification | null> {
    return this.findOne({ tokenHash });
  }

  /** `findByTokenHash`, locked for the rest of the transaction. */
  lockByTokenHash(tokenHash: string): Promise<IEmailVerification | null> {
    return this.findOneForUpdate({ tokenHash });
  }

  /** Queues a new link for one of the form's addresses, and the removal of every earlier one of that address: the new link replaces them. */
  async replaceForForm(link: { formId: string; email: string; tokenHash: string; expiresAt: Date }): Promise<void> {
    for (const earlier of await this.find({ form: link.formId, email: link.email })) this.em.remove(earlier);
    this.create({ id: newId('evf'), form: link.formId, user: null, email: link.email, tokenHash: link.tokenHash, expiresAt: link.expiresAt, usedAt: null });
  }

  /** Whether the form's link for `email` is still waiting to be used: sent, neither used nor expired. */
  async isWaitingForForm(formId: string, email: string, now: Date): Promise<boolean> {
    return (await this.count({ form: formId, email, usedAt: null, expiresAt: { $gt: now } })) > 0;
  }

  /** The same for an account's own address. */
  async replaceForUser(link: { userId: string; email: string; tokenHash: string; expiresAt: Date }): Promise<void> {
    for (const earlier of await this.find({ user: link.userId })) this.em.remove(earlier);
    this.create({ id: newId('evf'), form: null, user: link.userId, email: link.email, tokenHash: link.tokenHash, expiresAt: link.expiresAt, usedAt: null });
  }

  /** When the account's live link was sent, or null when it has none. */
  async sentToUserAt(userId: string): Promise<Date | null> {
    const link = await this.findOne({ user: userId }, { orderBy: { id: 'desc' } });
    return link?.createdAt ?? null;
  }
}
