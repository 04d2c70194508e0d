import { DeadlockException } from '@mikro-orm/core';

/**
 * Runs `transaction` again when PostgreSQL broke a deadlock by rolling it back (nothing of it was
 * written), up to `tries` times: for the deletes of a workspace or an account, which lock much and
 * should not fail because a write into what they delete came at the same moment.
 */
export async function retryingDeadlocks<T>(transaction: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!(error instanceof DeadlockException) || attempt >= tries) throw error;
    }
  }
}
