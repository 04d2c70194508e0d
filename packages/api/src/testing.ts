/**
 * Accounts written straight to the database for tests (`@lfk/api/testing`): by `openAccount`, the
 * code sign-up itself runs, with the password's hash made once per process, since argon2 is slow
 * by design. The server's and the api package's tests both seed through here.
 */
import { type Database, Membership, User } from '@lfk/db';
import type { Role } from '@lfk/vocabulary';
import { hashPassword } from './credentials/passwords.ts';
import { openAccount } from './features/auth/open-account.ts';

/** The password of every seeded account. */
export const TEST_PASSWORD = 'correct horse battery staple';

let passwordHash: Promise<string> | undefined;

export interface SeededAccount {
  /** A real session token, as sign-up would answer it. */
  token: string;
  userId: string;
  /** The account's personal workspace, which it owns. */
  workspaceId: string;
  email: string;
}

export interface SeedOptions {
  /**
   * Whether the account has confirmed its address (true by default: what most tests need, since
   * an unconfirmed account cannot create keys, add webhooks or invite). False for one just signed up.
   */
  confirmed?: boolean;
}

/** A new account (user, personal workspace, session) at `now`, for the (lower-cased) `email`. */
export async function seedAccount(db: Database, email: string, now: Date, { confirmed = true }: SeedOptions = {}): Promise<SeededAccount> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const hash = await passwordHash;
  const address = email.toLowerCase();
  const { user, workspace, session } = await db.fork().transactional(async (em) => {
    const opened = openAccount(em, { email: address, passwordHash: hash }, now);
    if (confirmed) opened.user.emailVerifiedAt = now;
    return opened;
  });
  return { token: session.token, userId: user.id, workspaceId: workspace.id, email: address };
}

/**
 * Makes the account at `email` a member of the workspace, as an accepted invitation would: for
 * tests whose subject is not the invitation itself.
 */
export async function seedMembership(db: Database, workspaceId: string, email: string, role: Role): Promise<void> {
  await db.fork().transactional(async (em) => {
    const user = await em.getRepository(User).findOneOrFail({ email: email.toLowerCase() });
    em.getRepository(Membership).add(workspaceId, user.id, role);
  });
}
