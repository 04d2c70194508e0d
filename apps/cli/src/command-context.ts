import { PAGE_LIMIT } from '@lfk/vocabulary';
import { describeKeySource, describeSource, type Settings } from './config/settings.ts';
import { CliError, EXIT_AUTH, usageError } from './errors.ts';
import { type Api, createApi } from './http/api.ts';
import type { Output } from './output/output.ts';

/** What every command's action receives: the resolved settings and where to print. */
export interface CommandContext {
  settings: Settings;
  out: Output;
  /** The command as typed, without its arguments and flags (`lfk forms list`): for hints that say to run it again. */
  commandLine: string;
}

/**
 * The saved session for this server, or exit 4 saying how to get one. With an API key given, the
 * CLI acts as the key alone, so a command that needs a person is refused even with a session saved:
 * acting as someone else than the key, silently, would read another person's workspace.
 */
export function requireSession(settings: Settings): string {
  const token = settings.profile.session_token;
  if (settings.apiKey) {
    const source = describeKeySource(settings.apiKeySource);
    throw new CliError('session_required', `This needs a signed-in person: an API key cannot do it, and ${source} is set.`, {
      exitCode: EXIT_AUTH,
      hint:
        "A key creates, reads and updates its workspace's forms, resends their verification and submits to them. " +
        'Listing forms, reading submissions and managing keys, members and workspaces need a person' +
        (token
          ? `: unset ${source} to use your saved session${settings.profile.user_email ? ` (${settings.profile.user_email})` : ''}.`
          : ": unset the key and run 'lfk login'."),
    });
  }
  if (!token) {
    throw new CliError('not_signed_in', `Not signed in to ${settings.baseUrl}.`, {
      exitCode: EXIT_AUTH,
      hint:
        `That server is ${describeSource(settings.baseUrlSource)}. ` +
        "Run 'lfk login' (or 'lfk signup' for a new account), or name another with --base-url or LFK_BASE_URL.",
    });
  }
  return token;
}

/**
 * A client with the saved session: for what only a signed-in person may do. `request` bounds each
 * request by the timeout rather than the client's whole life (for a command that keeps watching).
 */
export function sessionApi(ctx: CommandContext, timeoutBounds: 'client' | 'request' = 'client'): Promise<Api> {
  return createApi(ctx.settings, { sessionToken: requireSession(ctx.settings) }, timeoutBounds);
}

/** A command's context with a client: what a command that talks to the server works with. */
export interface ApiContext extends CommandContext {
  api: Api;
}

/** A command's context with the saved session's client and the workspace it acts in (see resolveWorkspace). */
export interface WorkspaceContext extends ApiContext {
  workspaceId: string;
}

/** Opens what a command works with, once its settings are resolved. */
export type Opener<S extends ApiContext> = (ctx: CommandContext) => Promise<S>;

/** The context with the client `client` makes (sessionApi, formsApi, keyApi…). */
export const withClient =
  (client: (ctx: CommandContext) => Promise<Api>): Opener<ApiContext> =>
  async (ctx) => ({ ...ctx, api: await client(ctx) });

/** The saved session's client: for what only a signed-in person may do. */
export const signedIn: Opener<ApiContext> = withClient(sessionApi);

/** The saved session's client and the workspace it acts in. */
export const inWorkspace: Opener<WorkspaceContext> = async (ctx) => {
  const api = await sessionApi(ctx);
  return { ...ctx, api, workspaceId: await resolveWorkspace(ctx, api) };
};

/** A client with no credentials: sign-up and login. */
export function anonymousApi(ctx: CommandContext): Promise<Api> {
  return createApi(ctx.settings, {});
}

/** A client with the API key; without one, `api_key_required` (see requireApiKey). */
export function keyApi(ctx: CommandContext): Promise<Api> {
  return createApi(ctx.settings, { apiKey: requireApiKey(ctx) });
}

/**
 * The API key a command that acts as a server must send (a submission): a session is not one, and
 * without either a browser form says "origin not allowed", which tells the person nothing.
 */
export function requireApiKey(ctx: CommandContext): string {
  if (ctx.settings.apiKey) return ctx.settings.apiKey;
  throw new CliError('api_key_required', 'This command sends as your server does, with an API key; a signed-in session is not one.', {
    exitCode: EXIT_AUTH,
    hint: "Set LFK_API_KEY=lfk_… (or --api-key); an owner makes one with 'lfk keys create'.",
  });
}

/** Forms commands use the API key when one is given (flag, then env), the session otherwise, else none. */
export function formsApi(ctx: CommandContext): Promise<Api> {
  const { apiKey, profile } = ctx.settings;
  return createApi(ctx.settings, apiKey ? { apiKey } : { sessionToken: profile.session_token });
}

/**
 * The workspace a session command acts in: --workspace, else LFK_WORKSPACE, else the one chosen with
 * `lfk workspaces use`, else the caller's only workspace. With several and none chosen, the caller
 * must choose, so this lists them.
 */
export async function resolveWorkspace(ctx: CommandContext, api: Api): Promise<string> {
  const chosen = ctx.settings.workspace?.id ?? ctx.settings.profile.workspace_id;
  if (chosen) return chosen;
  const { data } = await api.workspaces.list.query({ limit: PAGE_LIMIT.max });
  if (data.length === 1) return (data[0] as { id: string }).id;
  if (data.length === 0)
    throw new CliError('no_workspace', 'You are not a member of any workspace.', { hint: "Create one with 'lfk workspaces create <name>'." });
  const list = data.map((w) => `  ${w.id}  ${w.name} (${w.role})`).join('\n');
  throw usageError(
    'workspace_required',
    'You are in several workspaces; say which one.',
    `Pass --workspace <id>, set LFK_WORKSPACE, or run 'lfk workspaces use <id>'. Yours:\n${list}`,
  );
}
