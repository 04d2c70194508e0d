import { Argument, Command, Option } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import type { CommandContext } from './command-context.ts';
import type { GlobalFlags } from './config/settings.ts';

// Only commander is loaded to build this tree: each command's module (and undici and tRPC behind
// it) is imported when that command runs, so `lfk --help` stays quick.

// Commander's parsed options are untyped; each command module declares the flags it reads.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Flags = any;
type Handler = (ctx: CommandContext, args: string[], flags: Flags) => Promise<void>;

/** Turns a handler into a commander action: settings resolved, API failures made into CLI errors. */
function lazy(handler: Handler) {
  return async (...received: unknown[]) => {
    const command = received.at(-1) as Command;
    const args = received.slice(0, -2) as string[];
    const [{ loadSettings }, { Output }] = await Promise.all([import('./config/settings.ts'), import('./output/output.ts')]);
    const settings = await loadSettings(command.optsWithGlobals() as GlobalFlags);
    const ctx: CommandContext = { settings, out: new Output(settings.json) };
    try {
      await handler(ctx, args, command.opts() as Flags);
    } catch (error) {
      if ((error as Error | null)?.name !== 'TRPCClientError') throw error;
      const { toCliError } = await import('./http/api-errors.ts');
      throw toCliError(error, settings.baseUrl, settings.timeoutMs);
    }
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Every list takes the same page flags. */
const paged = (command: Command) =>
  command.option('--limit <n>', 'at most this many (1-100)').option('--cursor <cursor>', 'the page after this cursor');

const examples = (lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

const commands = () => import('./commands/index.ts');

export function buildProgram(): Command {
  const program = new Command('lfk')
    .description('lfk from the terminal: accounts, workspaces, API keys, forms and submissions.')
    .version(packageJson.version, '-V, --version', 'Print the version')
    .helpOption('-h, --help', 'Show help')
    .addOption(new Option('--base-url <url>', 'the lfk server (default: LFK_BASE_URL, then the one you signed in to, then http://localhost:3000)'))
    .addOption(new Option('--workspace <id>', 'the workspace to act in (default: LFK_WORKSPACE, then `lfk workspaces use`)'))
    .addOption(new Option('--api-key <key>', 'an API key for forms and submissions (default: LFK_API_KEY; never saved)'))
    .addOption(new Option('--timeout <seconds>', 'give up on a request after this long (default: LFK_TIMEOUT, then 30)'))
    .option('--json', 'print exactly the API objects, as JSON')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: () => {} }) // errors are printed once, by run.ts, in lfk's format
    .addHelpText('after', examples([
      'lfk signup --email you@example.com',
      'lfk keys create --name my-agent',
      'LFK_API_KEY=lfk_… lfk forms create --name Contact --field email:email:required --field message:textarea',
      'lfk completion bash >> ~/.bashrc',
    ]));

  program
    .command('signup')
    .description('Create an account and its personal workspace, and sign in')
    .option('--email <address>', 'your email address (asked for on a terminal)')
    .option('--name <name>', 'your name')
    .option('--password-stdin', 'read the password from standard input instead of asking')
    .addHelpText('after', examples(['lfk signup --email you@example.com', 'printf %s "$PASSWORD" | lfk signup --email you@example.com --password-stdin']))
    .action(lazy(async (ctx, _args, flags) => (await commands()).auth.signup(ctx, flags)));

  program
    .command('login')
    .description('Sign in; the session is saved for this server')
    .option('--email <address>', 'your email address (asked for on a terminal)')
    .option('--password-stdin', 'read the password from standard input instead of asking')
    .addHelpText('after', examples(['lfk login --email you@example.com', 'lfk login --base-url https://forms.example.com --email you@example.com']))
    .action(lazy(async (ctx, _args, flags) => (await commands()).auth.login(ctx, flags)));

  program
    .command('logout')
    .description('Sign out: the session is ended on the server and removed from this machine')
    .action(lazy(async (ctx) => (await commands()).auth.logout(ctx)));

  program
    .command('whoami')
    .description('Who you are signed in as, where, and the default workspace')
    .action(lazy(async (ctx) => (await commands()).auth.whoami(ctx)));

  const workspaces = program
    .command('workspaces')
    .description('List, create and choose workspaces')
    .addHelpText('after', examples(['lfk workspaces list', 'lfk workspaces create "Acme" --use', 'lfk workspaces use ws_…']));
  workspaces
  paged(workspaces.command('list'))
    .description('Your workspaces and your role in each (* marks the default)')
    .action(lazy(async (ctx, _args, flags) => (await commands()).workspaces.list(ctx, flags)));
  workspaces
    .command('create')
    .description('Create a workspace; you become its owner')
    .argument('<name>', "the workspace's name")
    .option('--use', 'make it the default workspace')
    .action(lazy(async (ctx, [name], flags) => (await commands()).workspaces.create(ctx, name as string, flags)));
  workspaces
    .command('use')
    .description('Make a workspace the default for this server')
    .argument('<workspace_id>', 'the workspace, e.g. ws_…')
    .action(lazy(async (ctx, [id]) => (await commands()).workspaces.use(ctx, id as string)));

  const keys = program
    .command('keys')
    .description("Create, list and revoke the workspace's API keys (owners)")
    .addHelpText('after', examples(['lfk keys create --name ci', 'lfk keys list', 'lfk keys revoke key_… --yes', 'export LFK_API_KEY=$(lfk keys create --name agent)']));
  keys
    .command('create')
    .description('Create an API key; it is printed once and cannot be shown again')
    .option('--name <name>', 'a name to tell the key apart by')
    .action(lazy(async (ctx, _args, flags) => (await commands()).keys.create(ctx, flags)));
  keys
  paged(keys.command('list'))
    .description('List API keys, revoked ones included')
    .action(lazy(async (ctx, _args, flags) => (await commands()).keys.list(ctx, flags)));
  keys
    .command('revoke')
    .description('Revoke an API key: it stops working at once')
    .argument('<key_id>', 'the key, e.g. key_…')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(lazy(async (ctx, [id], flags) => (await commands()).keys.revoke(ctx, id as string, flags)));

  const forms = program
    .command('forms')
    .description('Create and manage forms (with an API key or a session)')
    .addHelpText('after', examples([
      'lfk forms create --name Contact --field email:email:required --field message:textarea --origin https://example.com',
      'lfk forms create --name Signup --schema schema.json --mode api_key',
      'lfk forms create --name Plans --field plan:select=free,pro:required',
      'lfk forms update form_… --notify-email team@example.com',
      'lfk forms get form_… --json',
      'lfk forms claim form_… --claim-token lfc_…',
    ]));
  const formOptions = (command: Command) =>
    command
      .option('--name <name>', "the form's name")
      .option('--field <name:type[:required]>', 'a field; repeat for each (types: text textarea email number url tel date checkbox select=a,b)', collect)
      .option('--schema <file|->', 'the fields as a JSON array, from a file or - for standard input')
      .addOption(new Option('--mode <mode>', 'who may submit').choices(['browser', 'api_key']))
      .option('--origin <origin>', 'an origin allowed to submit from a browser; repeat for each', collect)
      .option('--redirect-url <url>', 'where a browser goes after submitting')
      .option('--notify-email <address>', 'email each submission here (once the address is verified)')
      .option('--project <project_id>', 'the project the form belongs to');
  formOptions(forms.command('create').description("Create a form: in the key's workspace, the default workspace, or unclaimed without credentials"))
    .option('--idempotency-key <key>', 'reuse to make a repeated command create at most one form')
    .action(lazy(async (ctx, _args, flags) => (await commands()).forms.create(ctx, flags)));
  forms
  paged(forms.command('list'))
    .description("The workspace's forms, newest first (needs a session)")
    .action(lazy(async (ctx, _args, flags) => (await commands()).forms.list(ctx, flags)));
  forms
    .command('get')
    .description('Show a form')
    .argument('<form_id>', 'the form, e.g. form_…')
    .action(lazy(async (ctx, [id]) => (await commands()).forms.get(ctx, id as string)));
  formOptions(forms.command('update').description("Change some of a form's settings").argument('<form_id>', 'the form'))
    .option('--no-redirect-url', 'remove the redirect URL')
    .option('--no-notify-email', 'stop emailing submissions')
    .action(lazy(async (ctx, [id], flags) => (await commands()).forms.update(ctx, id as string, flags)));
  forms
    .command('resend-verification')
    .description("Send a new verification link to the form's notify email")
    .argument('<form_id>', 'the form')
    .action(lazy(async (ctx, [id]) => (await commands()).forms.resendVerification(ctx, id as string)));
  forms
    .command('claim')
    .description('Claim an unclaimed form into your workspace with its claim token (needs a session)')
    .argument('<form_id>', 'the form')
    .requiredOption('--claim-token <token>', 'the lfc_… token printed when the form was created')
    .action(lazy(async (ctx, [id], flags) => (await commands()).forms.claim(ctx, id as string, flags as { claimToken: string })));

  const submissions = program
    .command('submissions')
    .description('Submit to a form with an API key, and read its submissions')
    .addHelpText('after', examples([
      'lfk submissions create form_… --data email=ada@example.com --data message=Hello',
      'echo \'{"email":"ada@example.com","age":36}\' | lfk submissions create form_… --data-json -',
      'lfk submissions list form_… --json',
    ]));
  submissions
    .command('create')
    .description('Submit values to a form, authenticated with the API key')
    .argument('<form_id>', 'the form')
    .option('--data <name=value>', 'a value; repeat for each field', collect)
    .option('--data-json <file|->', 'the values as a JSON object, from a file or - for standard input')
    .option('--idempotency-key <key>', 'reuse to make a repeated command submit at most once')
    .action(lazy(async (ctx, [id], flags) => (await commands()).submissions.create(ctx, id as string, flags)));
  submissions
  paged(submissions.command('list'))
    .description("A form's submissions, newest first (needs a session)")
    .argument('<form_id>', 'the form')
    .action(lazy(async (ctx, [id], flags) => (await commands()).submissions.list(ctx, id as string, flags)));

  program
    .command('completion')
    .description('Print a shell completion script')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh']))
    .addHelpText('after', examples(['echo \'source <(lfk completion bash)\' >> ~/.bashrc', 'lfk completion zsh > ~/.zfunc/_lfk']))
    .action(async (shell: 'bash' | 'zsh') => {
      const { completionScript } = await import('./completion.ts');
      process.stdout.write(completionScript(shell, program));
    });

  return program;
}
