import { Command, Option } from '@commander-js/extra-typings';
import { resolveWorkspace, sessionApi } from '../command-context.ts';
import { declined } from '../errors.ts';
import { confirm, requirePrompt } from '../terminal/prompts.ts';
import { examples } from './options.ts';
import { runCommand } from './run-command.ts';
import { workspaceListCommand } from './workspace-list.ts';

const ROLES = ['member', 'owner'] as const;

const membersListCommand = () =>
  workspaceListCommand({
    description: "The workspace's members and their roles",
    fetch: (api, workspaceId, input) => api.members.list.query({ workspace_id: workspaceId, ...input }),
    columns: [
      { header: 'USER', value: (m) => m.user_id },
      { header: 'EMAIL', value: (m) => m.email, shrink: true },
      { header: 'NAME', value: (m) => m.name ?? '', shrink: true, optional: true },
      { header: 'ROLE', value: (m) => m.role },
      { header: 'JOINED', value: (m) => m.created_at, time: true, optional: true },
    ],
    commandLine: 'lfk members list',
  });

const membersAddCommand = () =>
  new Command('add')
    .description('Add someone who has an lfk account to the workspace (owners)')
    .argument('<email>', 'their account email')
    .addOption(new Option('--role <role>', 'what they may do').choices(ROLES).default('member' as const))
    .action((email, flags, command) =>
      runCommand(command, async (ctx) => {
        const api = await sessionApi(ctx);
        const workspaceId = await resolveWorkspace(ctx, api);
        const member = await api.members.add.mutate({ workspace_id: workspaceId, email, role: flags.role });
        ctx.out.result(member, (member) => ctx.out.line(`Added ${member.email} (${member.user_id}) to ${workspaceId} as ${member.role}.`));
      }),
    );

const membersRemoveCommand = () =>
  new Command('remove')
    .description('Remove a member from the workspace (owners); the last owner cannot be removed')
    .argument('<user_id>', 'the member, e.g. usr_… (see lfk members list)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action((userId, flags, command) =>
      runCommand(command, async (ctx) => {
        if (!flags.yes) {
          requirePrompt('confirmation', '--yes to remove without asking');
          if (!(await confirm(`Remove ${userId} from the workspace? They lose access to its forms and submissions.`))) {
            throw declined('Nobody was removed.');
          }
        }
        const api = await sessionApi(ctx);
        const workspaceId = await resolveWorkspace(ctx, api);
        await api.members.remove.mutate({ workspace_id: workspaceId, user_id: userId });
        ctx.out.result({ workspace_id: workspaceId, user_id: userId, removed: true }, () => ctx.out.line(`Removed ${userId} from ${workspaceId}.`));
      }),
    );

export const membersCommand = () =>
  new Command('members')
    .description("List, add and remove the workspace's members")
    .addHelpText('after', examples(['lfk members list', 'lfk members add ada@example.com --role owner', 'lfk members remove usr_… --yes']))
    .addCommand(membersListCommand())
    .addCommand(membersAddCommand())
    .addCommand(membersRemoveCommand());
