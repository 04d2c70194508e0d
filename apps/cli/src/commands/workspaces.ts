import { Command } from '@commander-js/extra-typings';
import { type CommandContext, inWorkspace, sessionApi, signedIn } from '../command-context.ts';
import { updateConfig } from '../config/config-file.ts';
import { CliError } from '../errors.ts';
import { confirmOrStop, promptLine, requirePrompt } from '../terminal/prompts.ts';
import { commandGroup, paged } from './options.ts';
import { findListed, listed, noteNextPage } from './pages.ts';
import { action, callAndShow, withApi } from './run-command.ts';

/** Makes `workspaceId` the default workspace for this server. */
async function rememberWorkspace(ctx: CommandContext, workspaceId: string): Promise<void> {
  const { serverKey, configPath } = ctx.settings;
  await updateConfig(configPath, (config) => {
    config.servers[serverKey] = { ...config.servers[serverKey], workspace_id: workspaceId };
  });
}

/** A default workspace one has left, or deleted, is no default any more. */
async function forgetDefaultWorkspace(ctx: CommandContext, workspaceId: string): Promise<void> {
  const { serverKey, configPath } = ctx.settings;
  await updateConfig(configPath, (config) => {
    const profile = config.servers[serverKey];
    if (profile?.workspace_id === workspaceId) {
      const { workspace_id: _gone, ...rest } = profile;
      config.servers[serverKey] = rest;
    }
  });
}

const workspacesListCommand = () =>
  paged(new Command('list'))
    .description('Your workspaces and your role in each (* marks the default)')
    .action(
      callAndShow(
        signedIn,
        ({ api }, flags) => listed(flags, (input) => api.workspaces.list.query(input)),
        (page, ctx) => {
          const chosen = ctx.settings.workspace?.id ?? ctx.settings.profile.workspace_id;
          if (page.data.length === 0) return ctx.out.line("No workspaces. Create one with 'lfk workspaces create <name>'.");
          ctx.out.table(
            [
              { header: '', value: (w) => (w.id === chosen ? '*' : ' ') },
              { header: 'ID', value: (w) => w.id },
              { header: 'NAME', value: (w) => w.name, shrink: true },
              { header: 'ROLE', value: (w) => w.role },
              { header: 'CREATED', value: (w) => w.created_at, time: true, optional: true },
            ],
            page.data,
          );
          noteNextPage(ctx, page.next_cursor);
        },
      ),
    );

const workspacesCreateCommand = () =>
  new Command('create')
    .description('Create a workspace; you become its owner')
    .argument('<name>', "the workspace's name")
    .option('--use', 'make it the default workspace')
    .action(
      callAndShow(
        signedIn,
        async ({ api, ...ctx }, name, flags) => {
          const workspace = await api.workspaces.create.mutate({ name });
          if (flags.use) await rememberWorkspace(ctx, workspace.id);
          return workspace;
        },
        (workspace, { out }, _name, flags) => {
          out.line(`Created workspace ${workspace.name} (${workspace.id}).`);
          out.line(flags.use ? 'It is now the default.' : `Make it the default with 'lfk workspaces use ${workspace.id}'.`);
        },
      ),
    );

const workspacesUseCommand = () =>
  new Command('use')
    .description('Make a workspace the default for this server')
    .argument('<workspace_id>', 'the workspace, e.g. ws_…')
    .action(
      withApi(signedIn, async ({ api, ...ctx }, id) => {
        // Only a workspace the caller is in can be the default: look for it, page by page.
        const found = await findListed((input) => api.workspaces.list.query(input), (w) => w.id === id);
        if (!found) throw new CliError('workspace_not_found', `You are not a member of a workspace ${id}.`, { hint: "See yours with 'lfk workspaces list'." });
        await rememberWorkspace(ctx, found.id);
        ctx.out.result(found, (workspace) => ctx.out.line(`Default workspace: ${workspace.name} (${workspace.id}).`));
      }),
    );

const workspacesRenameCommand = () =>
  new Command('rename')
    .description('Rename the workspace (owners)')
    .argument('<name>', 'the new name')
    .action(
      action(async (ctx, name) => {
        const { api, workspaceId } = await inWorkspace(ctx);
        await api.workspaces.update.mutate({ workspace_id: workspaceId, name });
        ctx.out.result({ id: workspaceId, name: name.trim() }, (renamed) => ctx.out.line(`Renamed ${renamed.id} to "${renamed.name}".`));
      }),
    );

const workspacesLeaveCommand = () =>
  new Command('leave')
    .description('Leave the workspace (its last owner cannot: make someone else an owner first)')
    .option('-y, --yes', 'leave without asking')
    .action(
      action(async (ctx, flags) => {
        const { workspaceId } = await inWorkspace(ctx);
        if (!flags.yes) {
          await confirmOrStop(`Leave ${workspaceId}? You lose access to its forms and submissions.`, '--yes to leave without asking', 'You are still a member.');
        }
        // A client of its own after the question, so time spent answering is not spent from the timeout.
        await (await sessionApi(ctx)).members.leave.mutate({ workspace_id: workspaceId });
        await forgetDefaultWorkspace(ctx, workspaceId);
        ctx.out.result({ id: workspaceId, left: true }, () => ctx.out.line(`You left ${workspaceId}.`));
      }),
    );

const workspacesDeleteCommand = () =>
  new Command('delete')
    .description('Delete the workspace for good, with its keys, forms and submissions (owners): type its name to confirm')
    .option('--confirm <name>', "the workspace's name, typed to confirm (else you are asked for it)")
    .action(
      action(async (ctx, flags) => {
        const { api, workspaceId } = await inWorkspace(ctx);
        let typed = flags.confirm;
        if (typed === undefined) {
          const found = await findListed((input) => api.workspaces.list.query(input), (w) => w.id === workspaceId);
          requirePrompt("the workspace's name", '--confirm <name>');
          typed = await promptLine(`This deletes ${found?.name ?? workspaceId} (${workspaceId}) with its keys, forms and submissions, for good. Type its name to confirm: `);
        }
        // A client of its own after the question, so time spent answering is not spent from the timeout.
        await (await sessionApi(ctx)).workspaces.delete.mutate({ workspace_id: workspaceId, confirm: typed });
        await forgetDefaultWorkspace(ctx, workspaceId);
        ctx.out.result({ id: workspaceId, deleted: true }, () => ctx.out.line(`Deleted ${workspaceId}.`));
      }),
    );

export const workspacesCommand = () =>
  commandGroup(
    'workspaces',
    'List, create, choose, rename, leave and delete workspaces',
    [workspacesListCommand(), workspacesCreateCommand(), workspacesUseCommand(), workspacesRenameCommand(), workspacesLeaveCommand(), workspacesDeleteCommand()],
    ['lfk workspaces list', 'lfk workspaces create "Acme" --use', 'lfk workspaces use ws_…', 'lfk workspaces rename "Acme Forms"', 'lfk workspaces delete --confirm "Acme Forms"'],
  );
