import { Command } from '@commander-js/extra-typings';
import { inWorkspace, sessionApi } from '../command-context.ts';
import type { Api } from '../http/api.ts';
import { confirmOrStop } from '../terminal/prompts.ts';
import { commandGroup } from './options.ts';
import { findListed } from './pages.ts';
import { callAndShow, withApi } from './run-command.ts';
import { workspaceListCommand } from './workspace-list.ts';

const keysCreateCommand = () =>
  new Command('create')
    .description('Create an API key; it is printed once and cannot be shown again')
    .option('--name <name>', 'a name to tell the key apart by')
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, flags) => api.apiKeys.create.mutate({ workspace_id: workspaceId, ...(flags.name !== undefined ? { name: flags.name } : {}) }),
        (key, { out }) => {
          // The key alone on stdout, so `KEY=$(lfk keys create)` holds just the key; the rest is for the reader.
          out.note(`Created key ${key.id}${key.name ? ` (${key.name})` : ''} in workspace ${key.workspace_id}:`);
          out.line(out.style.bold(key.key));
          out.note(out.errorStyle.yellow('This is the only time the key is shown. Store it somewhere safe now; it cannot be shown again.'));
        },
      ),
    );

const keysListCommand = () =>
  workspaceListCommand('List API keys, revoked ones included', (api) => api.apiKeys.list, [
    { header: 'ID', value: (k) => k.id },
    { header: 'NAME', value: (k) => k.name ?? '', shrink: true },
    { header: 'PREFIX', value: (k) => `${k.prefix}…`, optional: true },
    { header: 'STATUS', value: (k) => k.status, paint: (text, k, style) => (k.status === 'active' ? style.green(text) : style.red(text)) },
    { header: 'LAST USED', value: (k) => k.last_used_at ?? 'never', time: true, optional: true },
    { header: 'CREATED', value: (k) => k.created_at, time: true, optional: true },
  ], (workspaceId) => `No API keys in ${workspaceId}. Create one with 'lfk keys create --name <name>'.`);

const keysRevokeCommand = () =>
  new Command('revoke')
    .description('Revoke an API key: it stops working at once')
    .argument('<key_id>', 'the key, e.g. key_…')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      withApi(inWorkspace, async ({ api: lookup, workspaceId, ...ctx }, keyId, flags) => {
        const key = await findKey(lookup, workspaceId, keyId);
        if (key?.status === 'revoked') {
          ctx.out.result(key, (key) => ctx.out.line(`${key.id} was already revoked.`));
          return;
        }
        // An id the list does not hold goes to the server as it is, which answers api_key_not_found.
        if (key && !flags.yes) {
          const named = `${key.id} (${key.name ? `${key.name}, ` : ''}${key.prefix}…)`;
          await confirmOrStop(`Revoke ${named}? Every request using it will fail from now on.`, '--yes to revoke without asking', 'Nothing was revoked.');
        }
        // A client of its own after the question, so time spent answering is not spent from the timeout.
        const api = await sessionApi(ctx);
        // Revoking twice is the same as once, so a lost answer may be asked again.
        await api.apiKeys.revoke.mutate({ workspace_id: workspaceId, key_id: keyId }, { context: { idempotent: true } });
        const revoked = await findKey(api, workspaceId, keyId);
        ctx.out.result(revoked, () => ctx.out.line(`Revoked ${keyId}.`));
      }),
    );

/** One key of the workspace, from its list (paged), or undefined when the list has no such id. */
function findKey(api: Api, workspaceId: string, keyId: string) {
  return findListed((input) => api.apiKeys.list.query({ workspace_id: workspaceId, ...input }), (k) => k.id === keyId);
}

export const keysCommand = () =>
  commandGroup(
    'keys',
    "Create, list and revoke the workspace's API keys (owners)",
    [keysCreateCommand(), keysListCommand(), keysRevokeCommand()],
    ['lfk keys create --name ci', 'lfk keys list', 'lfk keys revoke key_… --yes', 'export LFK_API_KEY=$(lfk keys create --name agent)'],
  );
