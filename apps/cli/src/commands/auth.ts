import { MIN_PASSWORD_LENGTH, PAGE_LIMIT } from '@lfk/vocabulary';
import { hostname } from 'node:os';
import { Command } from '@commander-js/extra-typings';
import { anonymousApi, type CommandContext, keyApi, sessionApi } from '../command-context.ts';
import { updateConfig } from '../config/config-file.ts';
import { describeKeySource } from '../config/settings.ts';
import { CliError, EXIT_AUTH, EXIT_USAGE, usageError } from '../errors.ts';
import { type Api, assertReachable, createApi } from '../http/api.ts';
import { inert, inertValue } from '../output/inert.ts';
import { openBrowser } from '../terminal/open-browser.ts';
import { canPrompt, promptHidden, promptLine, readStdin, requirePrompt } from '../terminal/prompts.ts';
import { tokenOfLink } from '../input/emailed-link.ts';
import { examples } from './options.ts';
import { completeSecondFactor } from './confirm-identity.ts';
import { secondFactorChallengeOf } from '@lfk/client';
import { action } from './run-command.ts';
import { allowedOf } from './keys.ts';

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

/**
 * The password from standard input (one line, its newline dropped) or typed at a hidden prompt.
 * A new password (`choosing`) is checked against the length rule, and the server for being
 * there, before it is asked for a second time.
 */
export async function passwordFrom(ctx: CommandContext, flags: CredentialsFlags, choosing: boolean): Promise<string> {
  if (flags.passwordStdin) return (await readStdin('the password')).replace(/\r?\n$/, '');
  requirePrompt('a password', '--password-stdin and the password on standard input');
  await assertReachable(ctx.settings);
  const password = await promptHidden('Password: ');
  if (!choosing) return password;
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw new CliError('invalid_password', `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`, { exitCode: EXIT_USAGE });
  }
  if ((await promptHidden('Password again: ')) !== password) throw new CliError('passwords_differ', 'The two passwords differ.');
  return password;
}

interface Credentials {
  email: string;
  password: string;
  /** A client with no credentials, to sign up or in with. */
  api: Api;
}

/** The email and the password (a new one when `choosing`) to sign up or in with. */
async function credentialsFrom(ctx: CommandContext, flags: CredentialsFlags, choosing: boolean): Promise<Credentials> {
  const email = await emailFrom(flags);
  const password = await passwordFrom(ctx, flags, choosing);
  return { email, password, api: await anonymousApi(ctx) };
}

/** Keeps the new session for this server, which becomes the one commands talk to. */
async function saveSession(ctx: CommandContext, signedIn: { session_token: string; user: { email: string } }, workspaceId: string | undefined) {
  const { baseUrl, serverKey, configPath } = ctx.settings;
  await updateConfig(configPath, (config) => {
    config.base_url = baseUrl;
    config.servers[serverKey] = {
      session_token: signedIn.session_token,
      user_email: signedIn.user.email,
      ...(workspaceId ? { workspace_id: workspaceId } : {}),
    };
  });
}

/**
 * The workspace to make the default after signing in: the only one, or the one picked from a
 * numbered list on a terminal. Without a terminal (or with --json) none is chosen, and it says how.
 */
async function chooseWorkspace(ctx: CommandContext, api: Api): Promise<string | undefined> {
  const { data } = await api.workspaces.list.query({ limit: PAGE_LIMIT.max });
  if (data.length === 1) return data[0]!.id;
  if (data.length === 0) return undefined;
  if (ctx.out.json || !canPrompt()) {
    ctx.out.note(`You are in ${data.length} workspaces; choose the default with 'lfk workspaces use <id>' (see 'lfk workspaces list').`);
    return undefined;
  }
  const rows = inertValue(data);
  ctx.out.note('You are in several workspaces. Which one should commands act in by default?');
  for (const [i, w] of rows.entries()) ctx.out.note(`  ${i + 1}. ${w.name} (${w.id}, ${w.role})`);
  for (;;) {
    const answer = await promptLine(`Workspace [1-${rows.length}]: `);
    const picked = /^\d+$/.test(answer) ? rows[Number(answer) - 1] : undefined;
    if (picked) return picked.id;
    ctx.out.note(`Answer a number from 1 to ${rows.length}.`);
  }
}

// The session token is the CLI's to keep in its config file: --json prints the API object
// without it, so it never lands in scrollback or a CI log.
function withoutSessionToken<T extends { session_token: string }>(value: T): Omit<T, 'session_token'> {
  const { session_token: _token, ...rest } = value;
  return rest;
}

/** A command that signs in with an email and a password: the two flags that give them. */
const withCredentialFlags = (name: string) =>
  new Command(name)
    .option('--email <address>', 'your email address (asked for on a terminal)')
    .option('--password-stdin', 'read the password from standard input instead of asking');

export const signupCommand = () =>
  withCredentialFlags('signup')
    .description('Create an account and its personal workspace, and sign in')
    .option('--name <name>', 'your name')
    .addHelpText('after', examples(['lfk signup --email you@example.com', 'printf %s "$PASSWORD" | lfk signup --email you@example.com --password-stdin']))
    .action(
      action(async (ctx, flags) => {
        const { email, password, api } = await credentialsFrom(ctx, flags, true);
        const result = await api.auth.signup.mutate({ email, password, ...(flags.name ? { name: flags.name } : {}) });
        await saveSession(ctx, result, result.workspace.id);
        ctx.out.result(withoutSessionToken(result), (result) => {
          ctx.out.line(`Signed up to ${ctx.settings.baseUrl} as ${ctx.out.style.bold(result.user.email)}.`);
          ctx.out.line(`Your workspace ${result.workspace.name} (${result.workspace.id}) is now the default.`);
          ctx.out.line(`Confirm your address with the link just emailed to ${result.user.email}: API keys, webhooks and invitations wait for it.`);
          ctx.out.line(`Then: ${ctx.out.style.bold('lfk keys create --name my-agent')}`);
        });
      }),
    );

/** After signing in: the default workspace (kept for the same person, else chosen now) and the saved session. */
async function finishLogin(ctx: CommandContext, result: { session_token: string; user: { email: string } }) {
  const { serverKey, config: saved } = ctx.settings;
  const previous = saved.servers[serverKey];
  // A default workspace belongs to the person who chose it; someone new to this machine chooses now.
  const workspace =
    previous?.user_email === result.user.email && previous.workspace_id
      ? previous.workspace_id
      : await chooseWorkspace(ctx, await createApi(ctx.settings, { sessionToken: result.session_token }));
  await saveSession(ctx, result, workspace);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sign-in through the browser, as gh and vercel do: the server gives a code and a page; the person
 * approves there (signed in to the dashboard) and this polls until they have. No password is typed
 * into the terminal. Everything said goes to stderr: stdout keeps the result alone.
 */
async function loginThroughBrowser(ctx: CommandContext, open: boolean) {
  // Each request gets the whole timeout: waiting for a person takes as long as it takes.
  const api = await createApi(ctx.settings, {}, 'request');
  const started = await api.deviceLogins.start.mutate({ device_name: `lfk CLI on ${hostname()}`.slice(0, 100) });
  const { out } = ctx;
  out.note(`Your one-time code: ${out.errorStyle.bold(started.user_code)}`);
  // No link carries the code: typing it from this terminal is what shows the request is yours.
  out.note(`Open ${started.verification_url}, signed in, and type this code there to approve it.`);
  // Only for a person at a terminal: a script or CI job never gets a browser window.
  if (open && canPrompt() && openBrowser(started.verification_url)) out.note(out.errorStyle.dim('Opening your browser…'));
  out.note(out.errorStyle.dim('Waiting for you to approve it (Ctrl-C to stop).'));
  let intervalMs = started.interval * 1000;
  for (;;) {
    await sleep(intervalMs);
    try {
      return await api.deviceLogins.token.mutate({ device_code: started.device_code });
    } catch (error) {
      const { toCliError } = await import('../http/api-errors.ts');
      const failure = toCliError(error, ctx.settings.baseUrl, ctx.settings.timeoutMs);
      if (failure.code === 'authorization_pending') continue;
      // Asked too often (a slow clock, a retry): wait longer from now on, as RFC 8628's slow_down says.
      if (failure.code === 'rate_limited') {
        intervalMs += 5000;
        continue;
      }
      if (failure.code === 'device_login_denied') throw new CliError('device_login_denied', 'The sign-in was denied in the browser.', { exitCode: EXIT_AUTH });
      if (failure.code === 'device_login_expired') {
        throw new CliError('device_login_expired', 'The code expired before it was approved.', { exitCode: EXIT_AUTH, hint: "Run 'lfk login --web' again." });
      }
      throw failure;
    }
  }
}

export const loginCommand = () =>
  withCredentialFlags('login')
    .description('Sign in; the session is saved for this server')
    .option('--web', 'sign in through the dashboard in your browser: approve a code, type no password here')
    .option('--code <code>', 'the code from your authenticator app, or a recovery code, when the account has a second factor (asked for on a terminal)')
    .option('--no-browser', 'with --web: print the page to open instead of opening it')
    .addHelpText(
      'after',
      examples(['lfk login --web', 'lfk login --email you@example.com', 'lfk login --base-url https://forms.example.com --email you@example.com']),
    )
    .action(
      action(async (ctx, flags) => {
        let result: { session_token: string; user: { email: string } };
        if (flags.web) {
          if (flags.email || flags.passwordStdin || flags.code) {
            throw usageError('conflicting_flags', '--web signs in through the browser: leave out --email, --password-stdin and --code.');
          }
          result = await loginThroughBrowser(ctx, flags.browser);
        } else {
          const { email, password, api } = await credentialsFrom(ctx, flags, false);
          try {
            result = await api.auth.login.mutate({ email, password });
          } catch (error) {
            const pending = secondFactorChallengeOf(error);
            if (!pending) throw error;
            result = await completeSecondFactor(ctx, api, pending, flags.code);
          }
        }
        await finishLogin(ctx, result);
        ctx.out.result(withoutSessionToken(result), (result) => {
          ctx.out.line(`Signed in to ${ctx.settings.baseUrl} as ${ctx.out.style.bold(result.user.email)}.`);
        });
      }),
    );

export const logoutCommand = () =>
  new Command('logout').description('Sign out: the session is ended on the server and removed from this machine').action(
    action(async (ctx) => {
      const { baseUrl, serverKey, configPath, profile } = ctx.settings;
      if (!profile.session_token) {
        if (!ctx.out.json) ctx.out.line(`Not signed in to ${baseUrl}.`);
        return;
      }
      let warning: string | undefined;
      try {
        await (await sessionApi(ctx)).auth.logout.mutate();
      } catch (error) {
        const { toCliError } = await import('../http/api-errors.ts');
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
  new Command('whoami').description('Who commands act as (an API key, or your signed-in session), where, and the default workspace').action(
    action(async (ctx) => {
      const { settings, out } = ctx;
      const chosen = settings.workspace ?? (settings.profile.workspace_id ? { id: settings.profile.workspace_id, source: 'config' as const } : null);
      const from = { flag: ' (from --workspace)', env: ' (from LFK_WORKSPACE)', config: '' };
      if (settings.apiKey) {
        // The key is what every command acts as: say which key it is (the server's own answer),
        // and that a saved session waits unused.
        const source = describeKeySource(settings.apiKeySource);
        const current = await (await keyApi(ctx)).apiKeys.current.query();
        const view = {
          acting_as: 'api_key' as const,
          api_key: { ...current, source },
          saved_session: settings.profile.session_token ? { email: settings.profile.user_email ?? null, used: false } : null,
          server: settings.baseUrl,
        };
        out.result(view, (view) => {
          const { api_key: key } = view;
          out.record([
            ['acting as', `API key ${key.name ? `“${key.name}” ` : ''}${key.prefix}… (from ${source})`],
            ['key', key.id],
            ['workspace', key.workspace_id],
            ['expires', key.expires_at ?? 'never'],
            ['allowed from', allowedOf(key)],
            ['server', view.server],
            ['can', "create, read and update its workspace's forms, resend their verification, submit to them"],
            ...(view.saved_session
              ? [['saved session', `${view.saved_session.email ?? 'signed in'}: not used while ${source} is set`] as [string, string]]
              : []),
          ]);
        });
        return;
      }
      const session = await (await sessionApi(ctx)).auth.session.query();
      // The API's session, plus what the CLI adds to it: which server, and the workspace commands act in.
      const view = { acting_as: 'session' as const, ...session, server: settings.baseUrl, default_workspace: chosen };
      out.result(view, (view) => {
        out.record([
          ['acting as', `${view.user.email} (${view.user.id})`],
          ['server', view.server],
          ['workspace', view.default_workspace ? `${view.default_workspace.id}${from[view.default_workspace.source]}` : 'none chosen'],
          ['session expires', view.expires_at],
        ]);
      });
    }),
  );

/**
 * The current and the new password: two lines of standard input (`--password-stdin`), or typed at
 * hidden prompts, the new one twice.
 */
async function passwordsFrom(flags: { passwordStdin?: true }): Promise<{ current: string; next: string }> {
  if (flags.passwordStdin) {
    const [current, next] = (await readStdin('the current and the new password')).split(/\r?\n/);
    if (current === undefined || next === undefined || next === '') {
      throw usageError('passwords_required', '--password-stdin reads two lines: the current password, then the new one.');
    }
    return { current, next };
  }
  requirePrompt('passwords', '--password-stdin and two lines on standard input: the current password, then the new one');
  const current = await promptHidden('Current password: ');
  const next = await promptHidden('New password: ');
  if ([...next].length < MIN_PASSWORD_LENGTH) {
    throw new CliError('invalid_password', `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`, { exitCode: EXIT_USAGE });
  }
  if ((await promptHidden('New password again: ')) !== next) throw new CliError('passwords_differ', 'The two passwords differ.');
  return { current, next };
}

const passwordChangeCommand = () =>
  new Command('change')
    .description('Change your password: every other session of your account is signed out (this one stays)')
    .option('--password-stdin', 'read the current password, then the new one, as two lines of standard input')
    .addHelpText('after', examples(['lfk password change', 'printf "%s\\n%s\\n" "$OLD" "$NEW" | lfk password change --password-stdin']))
    .action(
      action(async (ctx, flags) => {
        const { current, next } = await passwordsFrom(flags);
        // A client of its own after the prompts, so time spent typing is not spent from the timeout.
        await (await sessionApi(ctx)).auth.changePassword.mutate({ current_password: current, new_password: next });
        ctx.out.result({ changed: true }, () => ctx.out.line('Password changed. Every other session of your account was signed out.'));
      }),
    );

const passwordResetCommand = () =>
  new Command('reset')
    .description('Forgot your password? Have a reset link emailed, then set a new password with it (every session is signed out)')
    .argument('[email]', "your account's address: a link to reset its password is emailed there")
    .option('--link <link>', 'the link from the email (or its lfr_… token): set a new password with it')
    .option('--password-stdin', 'with --link: read the new password from standard input instead of asking')
    .addHelpText('after', examples(['lfk password reset you@example.com', 'lfk password reset --link "https://lfk.example/v1/auth/password-resets/lfr_…"']))
    .action(
      action(async (ctx, email, flags) => {
        if ((email === undefined) === (flags.link === undefined)) {
          throw usageError('conflicting_flags', 'Give your address to have a link emailed, or --link to use one: one of the two.');
        }
        if (email !== undefined) {
          if (flags.passwordStdin) throw usageError('conflicting_flags', '--password-stdin goes with --link.');
          const { message } = await (await anonymousApi(ctx)).passwordResets.request.mutate({ email });
          return ctx.out.result({ requested: true, message }, () => ctx.out.line(`${message} Then run 'lfk password reset --link <the link>'.`));
        }
        const token = tokenOfLink(flags.link!, 'lfr_', 'the reset email');
        const password = await passwordFrom(ctx, flags, true);
        await (await anonymousApi(ctx)).passwordResets.reset.mutate({ token, password });
        ctx.out.result({ reset: true }, () => ctx.out.line("Password set. Every session of your account was signed out: sign in again with 'lfk login'."));
      }),
    );

export const passwordCommand = () =>
  new Command('password').description('Change your password, or reset a forgotten one').addCommand(passwordChangeCommand()).addCommand(passwordResetCommand());
