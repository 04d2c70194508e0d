import { type CommandContext, resolveWorkspace, sessionApi } from '../command-context.ts';
import { CliError } from '../errors.ts';
import { confirm, requirePrompt } from '../terminal/prompts.ts';
import { noteNextPage, type PageFlags, pageInput } from './pages.ts';

export async function create(ctx: CommandContext, flags: { name?: string }): Promise<void> {
  const api = await sessionApi(ctx);
  const workspaceId = await resolveWorkspace(ctx, api);
  const key = await api.apiKeys.create.mutate({ workspace_id: workspaceId, ...(flags.name !== undefined ? { name: flags.name } : {}) });
  ctx.out.result(key, (key) => {
    const { style, errorStyle } = ctx.out;
    // The key alone on stdout, so `KEY=$(lfk keys create)` holds just the key; the rest is for the reader.
    ctx.out.note(`Created key ${key.id}${key.name ? ` (${key.name})` : ''} in workspace ${key.workspace_id}:`);
    ctx.out.line(style.bold(key.key));
    ctx.out.note(errorStyle.yellow('This is the only time the key is shown. Store it somewhere safe now; it cannot be shown again.'));
  });
}

export async function list(ctx: CommandContext, flags: PageFlags): Promise<void> {
  const input = pageInput(flags);
  const api = await sessionApi(ctx);
  const workspaceId = await resolveWorkspace(ctx, api);
  const page = await api.apiKeys.list.query({ workspace_id: workspaceId, ...input });
  ctx.out.result(page, (page) => {
    if (page.data.length === 0) return ctx.out.line(`No API keys in ${workspaceId}. Create one with 'lfk keys create --name <name>'.`);
    const { style } = ctx.out;
    ctx.out.table(
      [
        { header: 'ID', value: (k) => k.id },
        { header: 'NAME', value: (k) => k.name ?? '' },
        { header: 'PREFIX', value: (k) => `${k.prefix}…` },
        { header: 'STATUS', value: (k) => k.status, paint: (text, k) => (k.status === 'active' ? style.green(text) : style.red(text)) },
        { header: 'CREATED', value: (k) => k.created_at },
        { header: 'LAST USED', value: (k) => k.last_used_at ?? 'never' },
      ],
      page.data,
    );
    noteNextPage(ctx, page.next_cursor, 'lfk keys list');
  });
}

export async function revoke(ctx: CommandContext, keyId: string, flags: { yes?: boolean }): Promise<void> {
  if (!flags.yes) {
    requirePrompt('confirmation', '--yes to revoke without asking');
    if (!(await confirm(`Revoke ${keyId}? Every request using it will fail from now on.`))) {
      throw new CliError('cancelled', 'Nothing was revoked.');
    }
  }
  const api = await sessionApi(ctx);
  const workspaceId = await resolveWorkspace(ctx, api);
  // Revoking twice is the same as once, so a lost answer may be asked again.
  await api.apiKeys.revoke.mutate({ workspace_id: workspaceId, key_id: keyId }, { context: { idempotent: true } });
  if (!ctx.out.json) ctx.out.line(`Revoked ${keyId}.`);
}
