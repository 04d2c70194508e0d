import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandContext } from '../command-context.ts';
import type { GlobalFlags } from '../config/settings.ts';

/**
 * Runs one command's body: settings resolved from its flags (and the root's), output chosen, and
 * API failures made into CLI errors. Settings and output are imported here, when a command runs,
 * so building the command tree for `lfk --help` loads no more than commander.
 */
export async function runCommand(command: CommandUnknownOpts, body: (ctx: CommandContext) => Promise<void>): Promise<void> {
  const [{ loadSettings }, { Output }] = await Promise.all([import('../config/settings.ts'), import('../output/output.ts')]);
  const settings = await loadSettings(command.optsWithGlobals() as GlobalFlags);
  const ctx: CommandContext = { settings, out: new Output(settings.json) };
  try {
    await body(ctx);
  } catch (error) {
    if ((error as Error | null)?.name !== 'TRPCClientError') throw error;
    const { toCliError } = await import('../http/api-errors.ts');
    throw toCliError(error, settings.baseUrl, settings.timeoutMs);
  }
}
