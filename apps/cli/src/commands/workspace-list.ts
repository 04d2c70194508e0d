import { Command } from '@commander-js/extra-typings';
import { resolveWorkspace, sessionApi } from '../command-context.ts';
import type { Api } from '../http/api.ts';
import type { Column } from '../output/table.ts';
import { paged } from './options.ts';
import { listed, noteNextPage, type Page, type PageInput } from './pages.ts';
import { runCommand } from './run-command.ts';

interface WorkspaceList<Row> {
  description: string;
  /** One page of the workspace's rows. */
  fetch: (api: Api, workspaceId: string, input: PageInput) => Promise<Page<Row>>;
  columns: Column<Row>[];
  /** What to say, instead of an empty table, when there are none. */
  empty?: (workspaceId: string) => string;
  /** The command line that asks for the next page, for the hint after the table. */
  commandLine: string;
}

/**
 * `lfk <group> list` for a workspace's rows (keys, forms, members…): the page flags, the workspace
 * chosen as everywhere, a table for people and the API page for --json.
 */
export function workspaceListCommand<Row>(list: WorkspaceList<Row>) {
  return paged(new Command('list'))
    .description(list.description)
    .action((flags, command) =>
      runCommand(command, async (ctx) => {
        const api = await sessionApi(ctx);
        const workspaceId = await resolveWorkspace(ctx, api);
        const page = await listed(flags, (input) => list.fetch(api, workspaceId, input));
        ctx.out.result(page, (page) => {
          if (page.data.length === 0 && list.empty) return ctx.out.line(list.empty(workspaceId));
          ctx.out.table(list.columns, page.data);
          noteNextPage(ctx, page.next_cursor, list.commandLine);
        });
      }),
    );
}
