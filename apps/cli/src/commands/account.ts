import { Command } from '@commander-js/extra-typings';
import { sessionApi } from '../command-context.ts';
import { updateConfig } from '../config/config-file.ts';
import { confirmOrStop } from '../terminal/prompts.ts';
import { passwordFrom } from './auth.ts';
import { commandGroup } from './options.ts';
import { action } from './run-command.ts';
import { twoFactorCommand } from './two-factor.ts';

const verifyEmailCommand = () =>
  new Command('verify-email').description("Email a new link to confirm your account's address (sent at sign-up; it works 24 hours)").action(
    action(async (ctx) => {
      const { sent_to } = await (await sessionApi(ctx)).auth.resendEmailVerification.mutate();
      ctx.out.result({ sent_to }, () => ctx.out.line(`Sent a link to ${sent_to}: open it and press "Verify".`));
    }),
  );

const accountDeleteCommand = () =>
  new Command('delete')
    .description('Delete your account for good: workspaces where you are the only member go with it')
    .option('--password-stdin', 'read your password from standard input instead of asking')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action(async (ctx, flags) => {
        if (!flags.yes) {
          await confirmOrStop(
            'Delete your account? Your sessions end, you leave every workspace, ' +
              'and workspaces where you are the only member are deleted with their keys, forms and submissions.',
            '--yes to delete without asking',
            'Your account stays.',
          );
        }
        const password = await passwordFrom(ctx, flags, false);
        // A client of its own after the prompts, so time spent typing is not spent from the timeout.
        await (await sessionApi(ctx)).auth.deleteAccount.mutate({ password });
        // Its session and workspaces died with it: the CLI forgets them, as after a logout.
        const { serverKey, configPath } = ctx.settings;
        await updateConfig(configPath, (config) => {
          const { session_token: _token, workspace_id: _workspace, ...rest } = config.servers[serverKey] ?? {};
          config.servers[serverKey] = rest;
        });
        ctx.out.result({ deleted: true }, () => ctx.out.line('Your account is deleted.'));
      }),
    );

export const accountCommand = () =>
  commandGroup(
    'account',
    'Confirm your address, set up a second factor, or delete your account',
    [verifyEmailCommand(), twoFactorCommand(), accountDeleteCommand()],
    ['lfk account verify-email', 'lfk account two-factor enable', 'lfk account delete'],
  );
