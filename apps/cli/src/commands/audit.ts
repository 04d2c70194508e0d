import { Command } from '@commander-js/extra-typings';
import { resolveWorkspace, sessionApi } from '../command-context.ts';
import { examples, paged } from './options.ts';
import { listed, noteNextPage } from './pages.ts';
import { runCommand } from './run-command.ts';

const auditListCommand = () =>
  paged(new Command('list'))
    .description("Who did what in the workspace, newest first: people and API keys (owners)")
    .action((flags, command) =>
      runCommand(command, async (ctx) => {
        const api = await sessionApi(ctx);
        const workspaceId = await resolveWorkspace(ctx, api);
        const page = await listed(flags, (input) => api.auditEvents.list.query({ workspace_id: workspaceId, ...input }));
        ctx.out.result(page, (page) => {
          ctx.out.table(
            [
              { header: 'WHEN', value: (e) => e.created_at, time: true },
              { header: 'ACTION', value: (e) => e.action },
              { header: 'BY', value: (e) => e.actor.id },
              { header: 'ON', value: (e) => (e.target ? e.target.id : ''), optional: true },
              { header: 'ID', value: (e) => e.id, optional: true },
            ],
            page.data,
          );
          noteNextPage(ctx, page.next_cursor, 'lfk audit list');
        });
      }),
    );

export const auditCommand = () =>
  new Command('audit')
    .description("The workspace's audit log (owners)")
    .addHelpText('after', examples(['lfk audit list', 'lfk audit list --all --json']))
    .addCommand(auditListCommand());
