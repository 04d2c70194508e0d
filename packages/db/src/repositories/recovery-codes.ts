import type { IRecoveryCode } from '../entities/recovery-code.ts';
import { newId } from '../ids.ts';
import { BaseRepository } from './base-repository.ts';

export class RecoveryCodeRepository extends BaseRepository<IRecoveryCode> {
  /** The account's codes are these (their hashes) from now on: the earlier ones, used or not, are gone. */
  async replaceFor(userId: string, codeHashes: readonly string[], now: Date): Promise<void> {
    await this.em.execute('delete from recovery_codes where user_id = ?', [userId]);
    if (codeHashes.length === 0) return;
    const values = codeHashes.map(() => '(?, ?, ?, null, ?)').join(', ');
    await this.em.execute(
      `insert into recovery_codes (id, user_id, code_hash, used_at, created_at) values ${values}`,
      codeHashes.flatMap((hash) => [newId('rcv'), userId, hash, now]),
    );
  }

  /** Spends the code with this hash: true once; of two uses at once, one. */
  async spend(userId: string, codeHash: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      'update recovery_codes set used_at = ? where user_id = ? and code_hash = ? and used_at is null returning id',
      [at, userId, codeHash],
    );
    return rows.length > 0;
  }

  /** How many of the account's codes are left unused. */
  async remainingOf(userId: string): Promise<number> {
    const rows = await this.em.execute<{ n: string | number }[]>('select count(*) as n from recovery_codes where user_id = ? and used_at is null', [userId]);
    return Number(rows[0]?.n ?? 0);
  }
}
