import { Command } from '@commander-js/extra-typings';
import { inWorkspace } from '../command-context.ts';
import type { Api } from '../http/api.ts';
import type { Column } from '../output/table.ts';
import { paged } from './options.ts';
import { listed, noteNextPage, type Page, type PageInput } from './pages.ts';
import { callAndShow } from './run-command.ts';

/** A workspace's list procedure, e.g. `(api) => api.apiKeys.list`: asked for a page at a time. */
type ListProcedure<Row> = (api: Api) => { query: (input: PageInput & { workspace_id: string }) => Promise<Page<Row>> };

/**
 * `lfk <group> list` for a workspace's rows (keys, forms, members…): the page flags, the workspace
 * chosen as everywhere, a table of `columns` for people and the API page for --json. `empty` says
 * what to print instead of an empty table.
 */
export function workspaceListCommand<Row>(description: string, procedure: ListProcedure<Row>, columns: Column<Row>[], empty?: (workspaceId: string) => string) {
  return paged(new Command('list'))
    .description(description)
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, flags) => listed(flags, (input) => procedure(api).query({ workspace_id: workspaceId, ...input })),
        (page, ctx) => {
          if (page.data.length === 0 && empty) return ctx.out.line(empty(ctx.workspaceId));
          ctx.out.table(columns, page.data);
          noteNextPage(ctx, page.next_cursor);
        },
      ),
    );
}
