import type { AuthChallengePurpose } from '@lfk/vocabulary';
import type { IAuthChallenge } from '../entities/auth-challenge.ts';
import { newId } from '../ids.ts';
import { BaseRepository } from './base-repository.ts';

/** A challenge as the step that completes it reads it. */
export interface OpenChallenge {
  id: string;
  purpose: AuthChallengePurpose;
  userId: string | null;
  webauthnChallenge: string | null;
  secretSealed: string | null;
  expiresAt: Date;
}

export interface NewChallenge {
  purpose: AuthChallengePurpose;
  userId: string | null;
  tokenHash?: string | null;
  webauthnChallenge?: string | null;
  secretSealed?: string | null;
  expiresAt: Date;
}

const COLUMNS = 'id, purpose, user_id, webauthn_challenge, secret_sealed, expires_at';
type Row = {
  id: string;
  purpose: AuthChallengePurpose;
  user_id: string | null;
  webauthn_challenge: string | null;
  secret_sealed: string | null;
  expires_at: string | Date;
};
const fromRow = (r: Row): OpenChallenge => ({
  id: r.id,
  purpose: r.purpose,
  userId: r.user_id,
  webauthnChallenge: r.webauthn_challenge,
  secretSealed: r.secret_sealed,
  expiresAt: new Date(r.expires_at),
});

export class AuthChallengeRepository extends BaseRepository<IAuthChallenge> {
  /** Writes a challenge; expired ones, anyone's, are swept on the way (none lives more than minutes). */
  async open(challenge: NewChallenge, now: Date): Promise<string> {
    const id = newId('chl');
    await this.em.execute('delete from auth_challenges where expires_at <= ?', [now]);
    await this.em.execute(
      'insert into auth_challenges (id, purpose, token_hash, user_id, webauthn_challenge, secret_sealed, expires_at, created_at) ' +
        'values (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        id,
        challenge.purpose,
        challenge.tokenHash ?? null,
        challenge.userId,
        challenge.webauthnChallenge ?? null,
        challenge.secretSealed ?? null,
        challenge.expiresAt,
        now,
      ],
    );
    return id;
  }

  /** A signed-in person's enrolment in place of any earlier one of the same purpose (one at a time). */
  async replace(challenge: NewChallenge & { userId: string }, now: Date): Promise<string> {
    await this.em.execute('delete from auth_challenges where user_id = ? and purpose = ?', [challenge.userId, challenge.purpose]);
    return this.open(challenge, now);
  }

  /** The live challenge this token opened, unchanged; null when expired, spent or never made. */
  async findByToken(tokenHash: string, purpose: AuthChallengePurpose, now: Date): Promise<OpenChallenge | null> {
    const rows = await this.em.execute<Row[]>(`select ${COLUMNS} from auth_challenges where token_hash = ? and purpose = ? and expires_at > ?`, [
      tokenHash,
      purpose,
      now,
    ]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** The person's live enrolment of this purpose; null when there is none. */
  async findEnrolment(userId: string, purpose: AuthChallengePurpose, now: Date): Promise<OpenChallenge | null> {
    const rows = await this.em.execute<Row[]>(
      `select ${COLUMNS} from auth_challenges where user_id = ? and purpose = ? and expires_at > ? order by id desc limit 1`,
      [userId, purpose, now],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** A passwordless sign-in's challenge, by what the authenticator signed; null when expired or spent. */
  async findByWebauthnChallenge(webauthnChallenge: string, purpose: AuthChallengePurpose, now: Date): Promise<OpenChallenge | null> {
    const rows = await this.em.execute<Row[]>(`select ${COLUMNS} from auth_challenges where webauthn_challenge = ? and purpose = ? and expires_at > ?`, [
      webauthnChallenge,
      purpose,
      now,
    ]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Locks the challenge for this transaction, while it is live: of two completions at once, the
   * second waits, then finds it spent. False when it is expired or already spent.
   */
  async lockLive(id: string, now: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>('select id from auth_challenges where id = ? and expires_at > ? for update', [id, now]);
    return rows.length > 0;
  }

  /** Spends the challenge: true once; of two completions at once, one. */
  async spend(id: string): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>('delete from auth_challenges where id = ? returning id', [id]);
    return rows.length > 0;
  }
}
