import { Command } from '@commander-js/extra-typings';
import { inWorkspace, sessionApi } from '../command-context.ts';
import { tokenOfLink } from '../input/emailed-link.ts';
import { confirmOrStop } from '../terminal/prompts.ts';
import { commandGroup } from './options.ts';
import { action, callAndShow } from './run-command.ts';
import { workspaceListCommand } from './workspace-list.ts';

const invitationsListCommand = () =>
  workspaceListCommand("The workspace's pending invitations, newest first", (api) => api.invitations.list, [
    { header: 'INVITATION', value: (i) => i.id },
    { header: 'EMAIL', value: (i) => i.email, shrink: true },
    { header: 'ROLE', value: (i) => i.role },
    { header: 'EXPIRES', value: (i) => i.expires_at, time: true },
    { header: 'SENT', value: (i) => i.created_at, time: true, optional: true },
  ]);

const invitationsResendCommand = () =>
  new Command('resend')
    .description('Email an invitation again, with a new link good for 7 more days (owners)')
    .argument('<invitation_id>', 'the invitation, e.g. inv_… (see lfk invitations list)')
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, invitationId) => api.invitations.resend.mutate({ workspace_id: workspaceId, invitation_id: invitationId }),
        (invitation, { out }) => out.line(`Sent ${invitation.email} a new link; it works until ${invitation.expires_at}.`),
      ),
    );

const invitationsCancelCommand = () =>
  new Command('cancel')
    .description('Cancel a pending invitation: its link stops working (owners)')
    .argument('<invitation_id>', 'the invitation, e.g. inv_… (see lfk invitations list)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action(async (ctx, invitationId, flags) => {
        if (!flags.yes)
          await confirmOrStop(`Cancel ${invitationId}? Its link stops working.`, '--yes to cancel without asking', 'The invitation still stands.');
        const { api, workspaceId } = await inWorkspace(ctx);
        await api.invitations.cancel.mutate({ workspace_id: workspaceId, invitation_id: invitationId });
        ctx.out.result({ id: invitationId, cancelled: true }, () => ctx.out.line(`Cancelled ${invitationId}.`));
      }),
    );

const invitationsAcceptCommand = () =>
  new Command('accept')
    .description('Accept an invitation, signed in with the address it was sent to: you join its workspace')
    .argument('<link>', 'the link from the email, or its lfi_… token')
    .action(
      action(async (ctx, link) => {
        const token = tokenOfLink(link, 'lfi_', 'an invitation email');
        const joined = await (await sessionApi(ctx)).invitations.accept.mutate({ token });
        ctx.out.result(joined, ({ workspace, role }) =>
          ctx.out.line(
            `You are ${role === 'owner' ? 'an owner' : 'a member'} of ${workspace.name} (${workspace.id}). ` +
              `Make it your default with 'lfk workspaces use ${workspace.id}'.`,
          ),
        );
      }),
    );

export const invitationsCommand = () =>
  commandGroup(
    'invitations',
    "See, resend and cancel the workspace's pending invitations, and accept one sent to you",
    [invitationsListCommand(), invitationsResendCommand(), invitationsCancelCommand(), invitationsAcceptCommand()],
    [
      'lfk members invite ada@example.com',
      'lfk invitations list',
      'lfk invitations resend inv_…',
      'lfk invitations cancel inv_… --yes',
      'lfk invitations accept "https://…/invitations/lfi_…"',
    ],
  );
