import { Command, type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import packageJson from '../package.json' with { type: 'json' };
import { loginCommand, logoutCommand, passwordCommand, signupCommand, whoamiCommand } from './commands/auth.ts';
import { sessionsCommand } from './commands/sessions.ts';
import { auditCommand } from './commands/audit.ts';
import { completionCommand } from './commands/completion.ts';
import { formsCommand } from './commands/forms/index.ts';
import { keysCommand } from './commands/keys.ts';
import { membersCommand } from './commands/members.ts';
import { invitationsCommand } from './commands/invitations.ts';
import { accountCommand } from './commands/account.ts';
import { examples } from './commands/options.ts';
import { projectsCommand } from './commands/projects.ts';
import { submissionsCommand } from './commands/submissions.ts';
import { webhooksCommand } from './commands/webhooks.ts';
import { listenCommand } from './commands/listen.ts';
import { workspacesCommand } from './commands/workspaces.ts';
import { EXIT_CODES_HELP } from './errors.ts';
import { io } from './terminal/io.ts';

// Each command group declares itself, options and handlers, in its own file under commands/;
// this only assembles the tree.
// Building it loads commander and the command files alone: tRPC and the settings are imported
// when a command runs (undici only when a proxy is set), so `lfk --help` stays quick.

export function buildProgram() {
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
  program
    .addCommand(signupCommand())
    .addCommand(loginCommand())
    .addCommand(logoutCommand())
    .addCommand(passwordCommand())
    .addCommand(sessionsCommand())
    .addCommand(accountCommand())
    .addCommand(whoamiCommand())
    .addCommand(workspacesCommand())
    .addCommand(membersCommand())
    .addCommand(invitationsCommand())
    .addCommand(projectsCommand())
    .addCommand(keysCommand())
    .addCommand(formsCommand())
    .addCommand(submissionsCommand())
    .addCommand(webhooksCommand())
    .addCommand(listenCommand())
    .addCommand(auditCommand())
    .addCommand(completionCommand(program));
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
