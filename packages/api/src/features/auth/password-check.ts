import { User } from '@lfk/db';
import type { Context } from '../../context.ts';
import { verifyPassword } from '../../credentials/passwords.ts';
import { ApiError } from '../../errors.ts';

/**
 * The signed-in person's account, once they have typed its password again (to change it, or to
 * delete the account). Guesses share the account's login budget, so a stolen session cannot try
 * passwords faster than a login could; a wrong one is a 400 on `field` (the session itself is fine).
 */
export async function confirmPassword(
  ctx: Pick<Context, 'em' | 'services'> & { session: { userId: string } },
  typed: string,
  field: { path: string; message: string },
) {
  const user = await ctx.em.getRepository(User).findWithPassword(ctx.session.userId);
  if (!(await ctx.services.rateLimits.guess('login_failures', user.email, () => verifyPassword(user.passwordHash ?? null, typed)))) {
    throw new ApiError('invalid_request', { details: [field] });
  }
  return user;
}
