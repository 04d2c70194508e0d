import { type CommandContext, sessionApi } from '../command-context.ts';
import { updateConfig } from '../config/config-file.ts';
import { CliError } from '../errors.ts';
import { noteNextPage, type PageFlags, pageInput } from './pages.ts';

export async function list(ctx: CommandContext, flags: PageFlags): Promise<void> {
  const input = pageInput(flags);
  const api = await sessionApi(ctx);
  const page = await api.workspaces.list.query(input);
  const chosen = ctx.settings.workspace?.id ?? ctx.settings.profile.workspace_id;
  ctx.out.result(page, (page) => {
    if (page.data.length === 0) return ctx.out.line("No workspaces. Create one with 'lfk workspaces create <name>'.");
    ctx.out.table(
      [
        { header: '', value: (w) => (w.id === chosen ? '*' : ' ') },
        { header: 'ID', value: (w) => w.id },
        { header: 'NAME', value: (w) => w.name },
        { header: 'ROLE', value: (w) => w.role },
        { header: 'CREATED', value: (w) => w.created_at },
      ],
      page.data,
    );
    noteNextPage(ctx, page.next_cursor, 'lfk workspaces list');
  });
}

export async function create(ctx: CommandContext, name: string, flags: { use?: boolean }): Promise<void> {
  const api = await sessionApi(ctx);
  const workspace = await api.workspaces.create.mutate({ name });
  if (flags.use) await remember(ctx, workspace.id);
  ctx.out.result(workspace, (workspace) => {
    ctx.out.line(`Created workspace ${workspace.name} (${workspace.id}).`);
    ctx.out.line(flags.use ? 'It is now the default.' : `Make it the default with 'lfk workspaces use ${workspace.id}'.`);
  });
}

/** Remembers the default workspace for this server, after checking the caller is in it. */
export async function use(ctx: CommandContext, id: string): Promise<void> {
  const api = await sessionApi(ctx);
  let cursor: string | undefined;
  let found: { id: string; name: string; role: string; created_at: string } | undefined;
  do {
    const page = await api.workspaces.list.query({ limit: 100, ...(cursor ? { cursor } : {}) });
    found = page.data.find((w) => w.id === id);
    cursor = page.next_cursor ?? undefined;
  } while (!found && cursor);
  if (!found) throw new CliError('workspace_not_found', `You are not a member of a workspace ${id}.`, { hint: "See yours with 'lfk workspaces list'." });
  await remember(ctx, found.id);
  const workspace = found;
  ctx.out.result(workspace, (workspace) => ctx.out.line(`Default workspace: ${workspace.name} (${workspace.id}).`));
}

async function remember(ctx: CommandContext, workspaceId: string): Promise<void> {
  const { baseUrl, configPath } = ctx.settings;
  await updateConfig(configPath, (config) => {
    config.servers[baseUrl] = { ...config.servers[baseUrl], workspace_id: workspaceId };
  });
}
