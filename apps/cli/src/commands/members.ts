import { Argument, Command, Option } from '@commander-js/extra-typings';
import { inWorkspace } from '../command-context.ts';
import { confirmOrStop } from '../terminal/prompts.ts';
import { commandGroup } from './options.ts';
import { action, callAndShow } from './run-command.ts';
import { workspaceListCommand } from './workspace-list.ts';

const ROLES = ['member', 'owner'] as const;

const membersListCommand = () =>
  workspaceListCommand("The workspace's members and their roles", (api) => api.members.list, [
    { header: 'USER', value: (m) => m.user_id },
    { header: 'EMAIL', value: (m) => m.email, shrink: true },
    { header: 'NAME', value: (m) => m.name ?? '', shrink: true, optional: true },
    { header: 'ROLE', value: (m) => m.role },
    { header: 'JOINED', value: (m) => m.created_at, time: true, optional: true },
  ]);

const membersInviteCommand = () =>
  new Command('invite')
    .description('Invite an email address (owners): they join when they accept the link emailed to them (7 days)')
    .argument('<email>', 'their address: with an lfk account or without one')
    .addOption(new Option('--role <role>', 'what they may do once they join').choices(ROLES).default('member' as const))
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, email, flags) => api.invitations.create.mutate({ workspace_id: workspaceId, email, role: flags.role }),
        (invitation, { out, workspaceId }) =>
          out.line(
            `Invited ${invitation.email} to ${workspaceId} as ${invitation.role === 'owner' ? 'an owner' : 'a member'} (${invitation.id}): ` +
              'they join when they accept the emailed link.',
          ),
      ),
    );

const membersRoleCommand = () =>
  new Command('role')
    .description("Change a member's role (owners); the last owner stays an owner")
    .argument('<user_id>', 'the member, e.g. usr_… (see lfk members list)')
    .addArgument(new Argument('<role>', 'the new role').choices(ROLES))
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, userId, role) => api.members.setRole.mutate({ workspace_id: workspaceId, user_id: userId, role }),
        (member, { out, workspaceId }) =>
          out.line(`${member.email} (${member.user_id}) is now ${member.role === 'owner' ? 'an owner' : 'a member'} of ${workspaceId}.`),
      ),
    );

const membersRemoveCommand = () =>
  new Command('remove')
    .description('Remove a member from the workspace (owners); the last owner cannot be removed')
    .argument('<user_id>', 'the member, e.g. usr_… (see lfk members list)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action(async (ctx, userId, flags) => {
        if (!flags.yes) {
          const question = `Remove ${userId} from the workspace? They lose access to its forms and submissions.`;
          await confirmOrStop(question, '--yes to remove without asking', 'Nobody was removed.');
        }
        const { api, workspaceId } = await inWorkspace(ctx);
        await api.members.remove.mutate({ workspace_id: workspaceId, user_id: userId });
        ctx.out.result({ workspace_id: workspaceId, user_id: userId, removed: true }, () => ctx.out.line(`Removed ${userId} from ${workspaceId}.`));
      }),
    );

export const membersCommand = () =>
  commandGroup(
    'members',
    "List, invite and remove the workspace's members, and change their roles",
    [membersListCommand(), membersInviteCommand(), membersRoleCommand(), membersRemoveCommand()],
    ['lfk members list', 'lfk members invite ada@example.com --role owner', 'lfk members role usr_… owner', 'lfk members remove usr_… --yes'],
  );
