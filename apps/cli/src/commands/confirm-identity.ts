import { type LfkSecondFactorChallenge, lfkErrorOf } from '@lfk/client';
import { type CommandContext, sessionApi } from '../command-context.ts';
import { CliError, EXIT_AUTH } from '../errors.ts';
import type { Api } from '../http/api.ts';
import { canPrompt, promptHidden, promptLine, requirePrompt } from '../terminal/prompts.ts';

// The questions that prove who is at the terminal: a second factor to finish signing in, and a
// password or code before a dangerous command (sudo mode). No command here: run-command.ts asks
// through this file, so it must not import the commands that run through run-command.ts.

/** Six digits, spaces allowed (`123 456`), is a code from the app; anything else a recovery code (or, asked again, a password). */
const isAppCode = (typed: string) => /^\d{6}$/.test(typed.replace(/\s/g, ''));

/** Wrong codes a person may type before the command gives up (the server limits guesses too). */
const TRIES = 3;

/**
 * The second half of a sign-in whose account has a second factor: a code from the app or a
 * recovery code, from `--code` or typed at the prompt (a wrong one is asked again).
 */
export async function completeSecondFactor(ctx: CommandContext, api: Api, pending: LfkSecondFactorChallenge, given: string | undefined) {
  if (given === undefined) requirePrompt('the code from your authenticator app', '--code <code>');
  const factors = pending.factors.filter((f) => f !== 'passkey');
  if (factors.length === 0) {
    throw new CliError('passkey_only', 'This account signs in with a passkey only, which a terminal cannot use.', {
      exitCode: EXIT_AUTH,
      hint: "Run 'lfk login --web' and sign in with your passkey in the browser.",
    });
  }
  for (let attempt = 1; ; attempt++) {
    const typed = given ?? (await promptLine('Authentication code (or a recovery code): '));
    try {
      const factor = isAppCode(typed) ? { code: typed } : { recovery_code: typed };
      return await api.auth.secondFactor.mutate({ challenge: pending.challenge, ...factor });
    } catch (error) {
      const code = lfkErrorOf(error)?.code;
      if (code === 'invalid_second_factor' && given === undefined && attempt < TRIES) {
        ctx.out.note('That code is not right, or it was already used. Try the one the app shows now.');
        continue;
      }
      if (code === 'invalid_challenge')
        throw new CliError('invalid_challenge', 'The sign-in expired before it was completed.', { exitCode: EXIT_AUTH, hint: "Run 'lfk login' again." });
      throw error;
    }
  }
}

/** What the server answers a wrong or empty password, or a wrong code: the person may type it again. */
const WRONG_ANSWERS = new Set(['invalid_request', 'invalid_second_factor']);

/**
 * Sudo mode at a terminal: the server wants the person to confirm who they are before what is
 * dangerous. Asked with the password or a code from the app, then the command goes on; a wrong
 * answer is told as the server said it and asked again, three tries in all, then the command stops
 * with the server's error. False when nobody is at a terminal to ask.
 */
export async function confirmItIsYou(ctx: CommandContext): Promise<boolean> {
  if (!canPrompt()) return false;
  ctx.out.note("This needs you to confirm it's you: you signed in more than a few minutes ago.");
  const [api, { toCliError }] = await Promise.all([sessionApi(ctx), import('../http/api-errors.ts')]);
  for (let attempt = 1; ; attempt++) {
    const typed = await promptHidden('Password (or a code from your authenticator app): ');
    try {
      await api.auth.reauthenticate.mutate(isAppCode(typed) ? { code: typed } : { password: typed });
      return true;
    } catch (error) {
      const failure = toCliError(error, ctx.settings.baseUrl, ctx.settings.timeoutMs);
      if (!WRONG_ANSWERS.has(failure.code) || attempt >= TRIES) throw failure;
      // What the server said ("password: Is not your password."), not yet as an error: the person may try again.
      ctx.out.note([failure.message, ...failure.details.map((d) => `  ${d.path}: ${d.message}`), 'Try again.'].join('\n'));
    }
  }
}
