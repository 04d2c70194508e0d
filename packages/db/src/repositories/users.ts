import { BaseRepository } from './base-repository.ts';
import type { IUser } from '../entities/user.ts';
import { newId } from '../ids.ts';

export class UserRepository extends BaseRepository<IUser> {
  /** Queues a new account; the unique email index refuses a taken address at flush. */
  register(email: string, name: string | null, passwordHash: string): IUser {
    return this.create({ id: newId('usr'), email, name, passwordHash });
  }

  /** The account with this (lower-cased) email, with its password hash, which is otherwise never loaded. */
  findForLogin(email: string) {
    return this.findOne({ email }, { populate: ['passwordHash'] });
  }

  /** The account with this id, with its password hash: to check a password a signed-in person gives again. */
  findWithPassword(userId: string) {
    return this.findOneOrFail({ id: userId }, { populate: ['passwordHash'] });
  }

  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await this.em.execute('update users set password_hash = ? where id = ?', [passwordHash, userId]);
  }

  findByEmail(email: string) {
    return this.findOne({ email });
  }
}
