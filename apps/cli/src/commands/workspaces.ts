import { Command, Option } from '@commander-js/extra-typings';
import { type CommandContext, inWorkspace, sessionApi, signedIn } from '../command-context.ts';
import { updateConfig } from '../config/config-file.ts';
import { FILE_LINK_TTL } from '@lfk/vocabulary';
import { CliError, usageError } from '../errors.ts';
import { describeDuration, parseDuration } from '../input/durations.ts';
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
              { header: 'DEFAULT', value: (w) => (w.id === chosen ? '*' : '') },
              { header: 'ID', value: (w) => w.id },
              { header: 'NAME', value: (w) => w.name, shrink: true },
              { header: 'ROLE', value: (w) => w.role },
              { header: 'CREATED', value: (w) => w.created_at, time: true, optional: true },
              { header: 'FILE LINKS', value: (w) => (w.file_link_ttl === null ? 'default' : describeDuration(w.file_link_ttl)), optional: true },
              { header: '2FA', value: (w) => (w.require_two_factor ? 'required' : '-'), optional: true },
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
        const found = await findListed(
          (input) => api.workspaces.list.query(input),
          (w) => w.id === id,
        );
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

/** `--file-link-ttl`: a duration (`3d`, `12h`), whole seconds, or `default` (the server's `LFK_FILE_LINK_TTL`, null to the API). */
function parseFileLinkTtl(value: string): number | null {
  if (value === 'default') return null;
  if (/^\d{1,8}$/.test(value)) return Number(value);
  return parseDuration('--file-link-ttl', value);
}

const workspacesUpdateCommand = () =>
  new Command('update')
    .description("Change the workspace's name, how long its files' signed download links live, or whether its members need a second factor (owners)")
    .option('--name <name>', 'the new name')
    .addOption(
      new Option(
        '--require-two-factor <state>',
        'on: members reach the workspace only once their account has a second factor (yours needs one first); keys are unaffected',
      ).choices(['on', 'off'] as const),
    )
    .option(
      '--file-link-ttl <duration>',
      `how long signed links to its files live: e.g. 3d, 12h or seconds (${describeDuration(FILE_LINK_TTL.min)} to ${describeDuration(FILE_LINK_TTL.max)}, ` +
        "never longer than the server's), or default",
    )
    .action(
      action(async (ctx, flags) => {
        if (flags.name === undefined && flags.fileLinkTtl === undefined && flags.requireTwoFactor === undefined) {
          throw usageError('missing_changes', 'Say what to change: --name <name>, --file-link-ttl <duration|default>, --require-two-factor <on|off>.');
        }
        const changes = {
          ...(flags.name !== undefined ? { name: flags.name } : {}),
          ...(flags.fileLinkTtl !== undefined ? { file_link_ttl: parseFileLinkTtl(flags.fileLinkTtl) } : {}),
          ...(flags.requireTwoFactor !== undefined ? { require_two_factor: flags.requireTwoFactor === 'on' } : {}),
        };
        const { api, workspaceId } = await inWorkspace(ctx);
        await api.workspaces.update.mutate({ workspace_id: workspaceId, ...changes });
        const updated = { id: workspaceId, ...changes, ...(changes.name !== undefined ? { name: changes.name.trim() } : {}) };
        ctx.out.result(updated, (view) => {
          if (view.name !== undefined) ctx.out.line(`Renamed ${view.id} to "${view.name}".`);
          if (view.file_link_ttl !== undefined) {
            const ttl = view.file_link_ttl;
            ctx.out.line(
              `Signed links to files of ${view.id} now live ${ttl === null ? "as long as the server's LFK_FILE_LINK_TTL says" : describeDuration(ttl)}.`,
            );
          }
          if (view.require_two_factor !== undefined) {
            ctx.out.line(
              view.require_two_factor
                ? `Members of ${view.id} now need a second factor on their account to reach it.`
                : `Members of ${view.id} no longer need a second factor to reach it.`,
            );
          }
        });
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
          await confirmOrStop(
            `Leave ${workspaceId}? You lose access to its forms and submissions.`,
            '--yes to leave without asking',
            'You are still a member.',
          );
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
          const found = await findListed(
            (input) => api.workspaces.list.query(input),
            (w) => w.id === workspaceId,
          );
          requirePrompt("the workspace's name", '--confirm <name>');
          typed = await promptLine(
            `This deletes ${found?.name ?? workspaceId} (${workspaceId}) with its keys, forms and submissions, for good. Type its name to confirm: `,
          );
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
    'List, create, choose, rename, update, leave and delete workspaces',
    [
      workspacesListCommand(),
      workspacesCreateCommand(),
      workspacesUseCommand(),
      workspacesRenameCommand(),
      workspacesUpdateCommand(),
      workspacesLeaveCommand(),
      workspacesDeleteCommand(),
    ],
    [
      'lfk workspaces list',
      'lfk workspaces create "Acme" --use',
      'lfk workspaces use ws_…',
      'lfk workspaces rename "Acme Forms"',
      'lfk workspaces update --file-link-ttl 3d',
      'lfk workspaces update --require-two-factor on',
      'lfk workspaces delete --confirm "Acme Forms"',
    ],
  );
