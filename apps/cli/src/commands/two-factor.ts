import { Command } from '@commander-js/extra-typings';
import { type CommandContext, sessionApi } from '../command-context.ts';
import { canPrompt, confirmOrStop, promptLine } from '../terminal/prompts.ts';
import { commandGroup } from './options.ts';
import { action } from './run-command.ts';

const statusCommand = () =>
  new Command('status').description('Whether signing in asks for a second factor, and how many recovery codes are left').action(
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
  new Command('enable').description('Set up an authenticator app: shows its secret, then asks for the first code it shows').action(
    action(async (ctx) => {
      const started = await (await sessionApi(ctx)).twoFactor.startTotp.mutate();
      const grouped = started.secret.match(/.{1,4}/g)!.join(' ');
      if (ctx.out.json || !canPrompt()) {
        // Nobody to ask for the first code here: the secret goes to stdout for whoever runs this
        // (a script, a person piping it), and the code comes back through `confirm`.
        ctx.out.result(started, (s) =>
          ctx.out.record([
            ['secret', s.secret],
            ['otpauth url', s.otpauth_url],
            ['expires at', s.expires_at],
          ]),
        );
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
        if (!flags.yes)
          await confirmOrStop('Make new recovery codes? The ones you have stop working.', '--yes to make them without asking', 'Your codes stay as they are.');
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
