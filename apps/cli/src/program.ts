import { Command, type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import packageJson from '../package.json' with { type: 'json' };
import { examples } from './commands/options.ts';
import { EXIT_CODES_HELP } from './errors.ts';
import { io } from './terminal/io.ts';

// Each command group declares itself, options and handlers, in its own file under commands/;
// this only assembles the tree. A command line that names one of them loads that file alone (help,
// completion and mistakes load them all); tRPC and the settings are imported when a command runs
// (undici only when a proxy is set), so `lfk --help` and `lfk keys list` stay quick.

type Load = () => Promise<CommandUnknownOpts>;

/** The top-level commands, in the order help lists them, each built from its own file. */
const COMMANDS: [name: string, load: Load][] = [
  ['signup', async () => (await import('./commands/auth.ts')).signupCommand()],
  ['login', async () => (await import('./commands/auth.ts')).loginCommand()],
  ['logout', async () => (await import('./commands/auth.ts')).logoutCommand()],
  ['password', async () => (await import('./commands/auth.ts')).passwordCommand()],
  ['sessions', async () => (await import('./commands/sessions.ts')).sessionsCommand()],
  ['account', async () => (await import('./commands/account.ts')).accountCommand()],
  ['whoami', async () => (await import('./commands/auth.ts')).whoamiCommand()],
  ['workspaces', async () => (await import('./commands/workspaces.ts')).workspacesCommand()],
  ['members', async () => (await import('./commands/members.ts')).membersCommand()],
  ['invitations', async () => (await import('./commands/invitations.ts')).invitationsCommand()],
  ['projects', async () => (await import('./commands/projects.ts')).projectsCommand()],
  ['keys', async () => (await import('./commands/keys.ts')).keysCommand()],
  ['forms', async () => (await import('./commands/forms/index.ts')).formsCommand()],
  ['submissions', async () => (await import('./commands/submissions.ts')).submissionsCommand()],
  ['drafts', async () => (await import('./commands/drafts.ts')).draftsCommand()],
  ['webhooks', async () => (await import('./commands/webhooks.ts')).webhooksCommand()],
  ['listen', async () => (await import('./commands/listen.ts')).listenCommand()],
  ['audit', async () => (await import('./commands/audit.ts')).auditCommand()],
];

/**
 * The top-level command `argv` names, read as commander will: past the root's own options (and
 * the value of those that take one). None when it names no command, or one not in the table.
 */
function commandNamed(root: CommandUnknownOpts, argv: readonly string[]): Load | undefined {
  const takesValue = new Set(root.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') return undefined;
    if (!word.startsWith('-')) return COMMANDS.find(([name]) => name === word)?.[1];
    if (takesValue.has(word)) i++;
  }
  return undefined;
}

export async function buildProgram(argv: readonly string[]) {
  const program = new Command('lfk')
    .description('lfk from the terminal: accounts, workspaces, API keys, forms and submissions.')
    .version(packageJson.version, '-V, --version', 'Print the version')
    .helpOption('-h, --help', 'Show help')
    .addOption(new Option('--base-url <url>', 'the lfk server (default: LFK_BASE_URL, then the one you signed in to, then http://127.0.0.1:3000)'))
    .addOption(new Option('--workspace <id>', 'the workspace to act in (default: LFK_WORKSPACE, then `lfk workspaces use`)'))
    .addOption(new Option('--api-key <key>', 'an API key for forms and submissions (default: LFK_API_KEY; never saved)'))
    .addOption(new Option('--timeout <seconds>', 'give up on a request after this long (default: LFK_TIMEOUT, then 30)'))
    .option('--json', 'print exactly the API objects, as JSON')
    .option('--no-headers', 'through a pipe, print table rows without the line of column names')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // Help and version go to this run's streams (the process's own, but in tests).
      writeOut: (text) => io().stdout.write(text),
      writeErr: (text) => io().stderr.write(text),
      getOutHelpWidth: () => (io().stdout.isTTY && io().stdout.columns) || 80,
      outputError: () => {}, // errors are printed once, by run.ts, in lfk's format
    })
    .addHelpText(
      'after',
      examples([
        'lfk signup --email you@example.com',
        'lfk keys create --name my-agent',
        'LFK_API_KEY=lfk_… lfk forms create --name Contact --field email:email:required --field message:textarea',
        'lfk completion bash >> ~/.bashrc',
      ]),
    )
    .addHelpText('after', EXIT_CODES_HELP);
  const named = commandNamed(program, argv);
  for (const command of await Promise.all(named ? [named()] : COMMANDS.map(([, load]) => load()))) program.addCommand(command);
  // The completion script is made from the whole tree.
  if (!named) program.addCommand((await import('./commands/completion.ts')).completionCommand(program));
  inheritSettings(program);
  return program;
}

/**
 * Commands made on their own and added do not take their parent's settings as `.command()` would:
 * help, errors thrown instead of exiting, output through run.ts. Copied down the whole tree here.
 */
function inheritSettings(parent: CommandUnknownOpts): void {
  for (const child of parent.commands) {
    child.copyInheritedSettings(parent);
    inheritSettings(child);
  }
}
