import { Command } from '@commander-js/extra-typings';
import { anonymousApi, sessionApi } from '../command-context.ts';
import { updateConfig } from '../config/config-file.ts';
import { CliError, EXIT_AUTH, usageError } from '../errors.ts';
import { toCliError } from '../http/api-errors.ts';
import { inert } from '../output/inert.ts';
import { promptHidden, promptLine, readStdin, requirePrompt } from '../terminal/prompts.ts';
import { examples } from './options.ts';
import { runCommand } from './run-command.ts';

interface CredentialsFlags {
  email?: string;
  passwordStdin?: true;
}

async function emailFrom(flags: CredentialsFlags): Promise<string> {
  if (flags.email) return flags.email;
  // Standard input holds the password, so the email cannot be asked for there.
  if (flags.passwordStdin) throw usageError('email_required', '--password-stdin needs --email.');
  requirePrompt('your email address', '--email <address>');
  return promptLine('Email: ');
}

/** The password from standard input (one line, its newline dropped) or typed at a hidden prompt. */
async function passwordFrom(flags: CredentialsFlags, confirmIt: boolean): Promise<string> {
  if (flags.passwordStdin) return (await readStdin('the password')).replace(/\r?\n$/, '');
  requirePrompt('a password', '--password-stdin and the password on standard input');
  const password = await promptHidden('Password: ');
  if (confirmIt && (await promptHidden('Password again: ')) !== password) {
    throw new CliError('passwords_differ', 'The two passwords differ.');
  }
  return password;
}

// The session token is the CLI's to keep in its config file: --json prints the API object
// without it, so it never lands in scrollback or a CI log.
function withoutSessionToken<T extends { session_token: string }>(value: T): Omit<T, 'session_token'> {
  const { session_token: _token, ...rest } = value;
  return rest;
}

export const signupCommand = () =>
  new Command('signup')
    .description('Create an account and its personal workspace, and sign in')
    .option('--email <address>', 'your email address (asked for on a terminal)')
    .option('--name <name>', 'your name')
    .option('--password-stdin', 'read the password from standard input instead of asking')
    .addHelpText('after', examples(['lfk signup --email you@example.com', 'printf %s "$PASSWORD" | lfk signup --email you@example.com --password-stdin']))
    .action((flags, command) =>
      runCommand(command, async (ctx) => {
        const email = await emailFrom(flags);
        const password = await passwordFrom(flags, true);
        const api = await anonymousApi(ctx);
        const result = await api.auth.signup.mutate({ email, password, ...(flags.name ? { name: flags.name } : {}) });
        const { baseUrl, serverKey, configPath } = ctx.settings;
        await updateConfig(configPath, (config) => {
          config.base_url = baseUrl;
          config.servers[serverKey] = { session_token: result.session_token, user_email: result.user.email, workspace_id: result.workspace.id };
        });
        ctx.out.result(withoutSessionToken(result), (result) => {
          ctx.out.line(`Signed up to ${baseUrl} as ${ctx.out.style.bold(result.user.email)}.`);
          ctx.out.line(`Your workspace ${result.workspace.name} (${result.workspace.id}) is now the default.`);
          ctx.out.line(`Next: ${ctx.out.style.bold('lfk keys create --name my-agent')}`);
        });
      }),
    );

export const loginCommand = () =>
  new Command('login')
    .description('Sign in; the session is saved for this server')
    .option('--email <address>', 'your email address (asked for on a terminal)')
    .option('--password-stdin', 'read the password from standard input instead of asking')
    .addHelpText('after', examples(['lfk login --email you@example.com', 'lfk login --base-url https://forms.example.com --email you@example.com']))
    .action((flags, command) =>
      runCommand(command, async (ctx) => {
        const email = await emailFrom(flags);
        const password = await passwordFrom(flags, false);
        const api = await anonymousApi(ctx);
        const result = await api.auth.login.mutate({ email, password });
        const { baseUrl, serverKey, configPath } = ctx.settings;
        await updateConfig(configPath, (config) => {
          const previous = config.servers[serverKey];
          // A default workspace belongs to the person who chose it.
          const workspace = previous?.user_email === result.user.email ? previous.workspace_id : undefined;
          config.base_url = baseUrl;
          config.servers[serverKey] = {
            session_token: result.session_token,
            user_email: result.user.email,
            ...(workspace ? { workspace_id: workspace } : {}),
          };
        });
        ctx.out.result(withoutSessionToken(result), (result) => {
          ctx.out.line(`Signed in to ${baseUrl} as ${ctx.out.style.bold(result.user.email)}.`);
        });
      }),
    );

export const logoutCommand = () =>
  new Command('logout')
    .description('Sign out: the session is ended on the server and removed from this machine')
    .action((_flags, command) =>
      runCommand(command, async (ctx) => {
        const { baseUrl, serverKey, configPath, profile } = ctx.settings;
        if (!profile.session_token) {
          if (!ctx.out.json) ctx.out.line(`Not signed in to ${baseUrl}.`);
          return;
        }
        let warning: string | undefined;
        try {
          await (await sessionApi(ctx)).auth.logout.mutate();
        } catch (error) {
          const failure = toCliError(error, baseUrl, ctx.settings.timeoutMs);
          // An expired or revoked session is already signed out; anything else is worth saying.
          if (failure.code !== 'invalid_session') warning = `${failure.code}: ${failure.message}`;
        }
        // The token leaves this machine either way: no one can use it from here. The email stays, so
        // the same person signing in again gets back the default workspace they chose.
        await updateConfig(configPath, (config) => {
          const { session_token: _token, ...rest } = config.servers[serverKey] ?? {};
          config.servers[serverKey] = rest;
        });
        if (warning) ctx.out.note(`warning: the server could not be told to end the session (${inert(warning)}); it was removed from this machine.`);
        if (!ctx.out.json) ctx.out.line(`Signed out of ${baseUrl}.`);
      }),
    );

export const whoamiCommand = () =>
  new Command('whoami')
    .description('Who you are signed in as, where, and the default workspace')
    .action((_flags, command) =>
      runCommand(command, async (ctx) => {
        const { settings, out } = ctx;
        if (!settings.profile.session_token && settings.apiKey) {
          throw new CliError('not_signed_in', `Not signed in to ${settings.baseUrl}; an API key is set, which acts for its workspace, not for a person.`, {
            exitCode: EXIT_AUTH,
            hint: "Run 'lfk login' to sign in.",
          });
        }
        const session = await (await sessionApi(ctx)).auth.session.query();
        out.result(session, (session) => {
          const workspace = settings.workspace
            ? `${settings.workspace.id} (from ${settings.workspace.source === 'flag' ? '--workspace' : 'LFK_WORKSPACE'})`
            : (settings.profile.workspace_id ?? 'none chosen');
          out.record([
            ['user', `${session.user.email} (${session.user.id})`],
            ['server', settings.baseUrl],
            ['workspace', workspace],
            ['session expires', session.expires_at],
          ]);
        });
      }),
    );
