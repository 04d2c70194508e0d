import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext, Opener, ApiContext } from '../command-context.ts';
import type { GlobalFlags } from '../config/settings.ts';

/**
 * Runs one command's body: settings resolved from its flags (and the root's), output chosen, and
 * API failures made into CLI errors. Settings and output are imported here, when a command runs,
 * so building the command tree for `lfk --help` loads no more than commander.
 */
export async function runCommand(command: CommandUnknownOpts, body: (ctx: CommandContext) => Promise<void>): Promise<void> {
  const [{ loadSettings }, { Output }] = await Promise.all([import('../config/settings.ts'), import('../output/output.ts')]);
  const settings = await loadSettings(command.optsWithGlobals() as GlobalFlags);
  const ctx: CommandContext = { settings, out: new Output(settings.json, undefined, { headers: settings.headers }), commandLine: commandLine(command) };
  try {
    await body(ctx);
  } catch (error) {
    if ((error as Error | null)?.name !== 'TRPCClientError') throw error;
    const { toCliError } = await import('../http/api-errors.ts');
    const failure = toCliError(error, settings.baseUrl, settings.timeoutMs);
    // Sudo mode: the server refused before doing anything, so once the person has confirmed who
    // they are the command runs again, whole.
    if (failure.code !== 'reauthentication_required') throw failure;
    const { confirmItIsYou } = await import('./confirm-identity.ts');
    if (!(await confirmItIsYou(ctx))) throw failure;
    try {
      await body(ctx);
    } catch (again) {
      if ((again as Error | null)?.name !== 'TRPCClientError') throw again;
      throw toCliError(again, settings.baseUrl, settings.timeoutMs);
    }
  }
}

/**
 * `T`, but not a place to infer it from: a body's parameters take their types from the command's
 * arguments and flags (through `.action()`), however many of them the body names.
 */
type FromCommand<T> = [T][T extends unknown ? 0 : never];

/** `lfk forms list`: the names from the root down to `command`. */
function commandLine(command: CommandUnknownOpts): string {
  return command.parent ? `${commandLine(command.parent)} ${command.name()}` : command.name();
}

/** A command's action as commander calls it: its arguments, its flags, then the command itself. */
type Action<Params extends unknown[]> = (...args: [...Params, CommandUnknownOpts]) => Promise<void>;

/** `body` as a command's action: run by runCommand, given the command's arguments and flags. */
export function action<Params extends unknown[]>(body: (ctx: CommandContext, ...params: FromCommand<Params>) => Promise<void>): Action<Params> {
  return (...args) => runCommand(args.at(-1) as CommandUnknownOpts, (ctx) => body(ctx, ...(args.slice(0, -1) as Params)));
}

/** An action whose body works with what `open` opens: a client (see withClient), or one and a workspace (inWorkspace). */
export function withApi<S extends ApiContext, Params extends unknown[]>(
  open: Opener<S>,
  body: (ctx: S, ...params: FromCommand<Params>) => Promise<void>,
): Action<Params> {
  return action<Params>(async (ctx, ...params) => body(await open(ctx), ...params));
}

/**
 * An action that makes one call and shows its answer: `call` fetches, `show` renders the answer
 * for a person, and --json prints the API's object as it is.
 */
export function callAndShow<S extends ApiContext, Params extends unknown[], T>(
  open: Opener<S>,
  call: (ctx: S, ...params: FromCommand<Params>) => Promise<T>,
  show: (answer: T, ctx: S, ...params: FromCommand<Params>) => void,
): Action<Params> {
  return withApi<S, Params>(open, async (ctx, ...params) => {
    const answer = await call(ctx, ...params);
    ctx.out.result(answer, (view) => show(view, ctx, ...params));
  });
}
