import { Command } from '@commander-js/extra-typings';
import { type LfkSecondFactorChallenge, lfkErrorOf } from '@lfk/client';
import { type CommandContext, sessionApi } from '../command-context.ts';
import { CliError, EXIT_AUTH } from '../errors.ts';
import type { Api } from '../http/api.ts';
import { canPrompt, confirmOrStop, promptHidden, promptLine, requirePrompt } from '../terminal/prompts.ts';
import { commandGroup } from './options.ts';
import { action } from './run-command.ts';

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
      if (code === 'invalid_challenge') throw new CliError('invalid_challenge', 'The sign-in expired before it was completed.', { exitCode: EXIT_AUTH, hint: "Run 'lfk login' again." });
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

const statusCommand = () =>
  new Command('status')
    .description('Whether signing in asks for a second factor, and how many recovery codes are left')
    .action(
      action(async (ctx) => {
        const status = await (await sessionApi(ctx)).twoFactor.status.query();
        ctx.out.result(status, (s) =>
          ctx.out.record([
            ['two-factor', s.enabled ? 'on' : 'off'],
            ['authenticator app', s.totp.enabled ? `set up ${s.totp.enabled_at}` : 'not set up'],
            ['recovery codes left', String(s.recovery_codes.remaining)],
          ]),
        );
      }),
    );

/** Recovery codes, one a line: shown this once. */
function showRecoveryCodes(ctx: CommandContext, codes: string[]) {
  ctx.out.line('Your recovery codes (each works once; this is the only time they are shown, so keep them somewhere safe):');
  for (const code of codes) ctx.out.line(`  ${code}`);
}

const confirmAction = async (ctx: CommandContext, code: string) => {
  const confirmed = await (await sessionApi(ctx)).twoFactor.confirmTotp.mutate({ code });
  ctx.out.result(confirmed, (c) => {
    ctx.out.line('The authenticator app is set up: signing in asks for one of its codes. Your other sessions were signed out.');
    if (c.recovery_codes) showRecoveryCodes(ctx, c.recovery_codes);
  });
};

const enableCommand = () =>
  new Command('enable')
    .description('Set up an authenticator app: shows its secret, then asks for the first code it shows')
    .action(
      action(async (ctx) => {
        const started = await (await sessionApi(ctx)).twoFactor.startTotp.mutate();
        const grouped = started.secret.match(/.{1,4}/g)!.join(' ');
        if (ctx.out.json || !canPrompt()) {
          // Nobody to ask for the first code here: the secret goes to stdout for whoever runs this
          // (a script, a person piping it), and the code comes back through `confirm`.
          ctx.out.result(started, (s) => ctx.out.record([['secret', s.secret], ['otpauth url', s.otpauth_url], ['expires at', s.expires_at]]));
          ctx.out.note(`Add it to your app, then run 'lfk account two-factor confirm <code>' before ${started.expires_at}.`);
          return;
        }
        ctx.out.note(
          "In your authenticator app, add an account with this secret (or open the dashboard's Account page for a QR code):" +
            `\n\n  ${grouped}\n\n  ${started.otpauth_url}\n`,
        );
        await confirmAction(ctx, await promptLine('The code the app shows: '));
      }),
    );

const confirmCommand = () =>
  new Command('confirm')
    .description("Finish setting up the authenticator app with the first code it shows (after 'enable' without a terminal)")
    .argument('<code>', 'the 6-digit code')
    .action(action(async (ctx, code) => confirmAction(ctx, code)));

const disableCommand = () =>
  new Command('disable')
    .description('Turn the authenticator app off: signing in asks for the password only (unless you have a passkey)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action(async (ctx, flags) => {
        if (!flags.yes) await confirmOrStop('Turn the authenticator app off?', '--yes to turn it off without asking', 'It stays on.');
        await (await sessionApi(ctx)).twoFactor.disableTotp.mutate();
        ctx.out.result({ disabled: true }, () => ctx.out.line('The authenticator app is off.'));
      }),
    );

const recoveryCodesCommand = () =>
  new Command('recovery-codes')
    .description('Make new recovery codes: the earlier ones stop working')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action(async (ctx, flags) => {
        if (!flags.yes) await confirmOrStop('Make new recovery codes? The ones you have stop working.', '--yes to make them without asking', 'Your codes stay as they are.');
        const issued = await (await sessionApi(ctx)).twoFactor.regenerateRecoveryCodes.mutate();
        ctx.out.result(issued, (i) => showRecoveryCodes(ctx, i.recovery_codes));
      }),
    );

export const twoFactorCommand = () =>
  commandGroup(
    'two-factor',
    'A second factor for signing in: an authenticator app, and recovery codes',
    [statusCommand(), enableCommand(), confirmCommand(), disableCommand(), recoveryCodesCommand()],
    ['lfk account two-factor enable', 'lfk account two-factor status', 'lfk account two-factor recovery-codes'],
  );
