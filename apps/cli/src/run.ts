import type { CommanderError } from 'commander';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, errorAsJson, formatError } from './errors.ts';
import { inert } from './output/inert.ts';
import { colourWanted, createStyle } from './output/style.ts';
import { type Io, io, withIo } from './terminal/io.ts';

/** commander's camelCase error codes in lfk's snake_case: `commander.unknownCommand` → `unknown_command`. */
const usageCode = (code: string) => code.replace(/^commander\./, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function fromCommander(error: CommanderError): CliError | number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT_OK;
  // Help shown because a group was named without a command: a usage error, already explained.
  if (error.code === 'commander.help') return EXIT_USAGE;
  const [first = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
  const hint = [...rest.filter(Boolean), "Run 'lfk --help' (or 'lfk <command> --help') for usage."].join('\n');
  return new CliError(usageCode(error.code), first, { exitCode: EXIT_USAGE, hint });
}

/** `--json` anywhere before a `--`: the command line may not have parsed, so it is looked for as written. */
const wantsJson = (argv: string[]) => {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
};

function report(error: CliError, json: boolean): number {
  const { stderr } = io();
  if (json) {
    stderr.write(`${JSON.stringify(errorAsJson(error))}\n`);
    return error.exitCode;
  }
  const style = createStyle(colourWanted(stderr));
  // An error's message and details may quote what the server was sent or holds: printed inert.
  const [first = '', ...rest] = formatError(error).map(inert);
  stderr.write(`${error.isCancellation ? first : style.red(first.replace(/^error:/, style.bold('error:')))}\n`);
  for (const line of rest) stderr.write(`${style.dim(line)}\n`);
  return error.exitCode;
}

/**
 * Runs one command line and answers its exit code; nothing here throws. `streams` are the
 * process's own for the bin; tests pass their own and run commands in process.
 */
export function run(argv: string[], streams?: Io): Promise<number> {
  return streams ? withIo(streams, () => runHere(argv)) : runHere(argv);
}

async function runHere(argv: string[]): Promise<number> {
  const { buildProgram } = await import('./program.ts');
  const program = await buildProgram(argv);
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return EXIT_USAGE;
  }
  const json = wantsJson(argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CliError) return report(error, json);
    if ((error as Error | null)?.name === 'CommanderError') {
      const outcome = fromCommander(error as CommanderError);
      return typeof outcome === 'number' ? outcome : report(outcome, json);
    }
    if (io().env.LFK_DEBUG) io().stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    const message = error instanceof Error ? error.message : String(error);
    return report(
      new CliError('unexpected_error', message, { exitCode: EXIT_FAILURE, hint: 'This is a bug in lfk. Set LFK_DEBUG=1 to see where it happened.' }),
      json,
    );
  }
}
