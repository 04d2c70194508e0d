import { Command } from '@commander-js/extra-typings';
import type { RouterOutputs } from '@lfk/client';
import { sessionApi } from '../command-context.ts';
import type { Column } from '../output/table.ts';
import { commandGroup, paged } from './options.ts';
import { listed, noteNextPage } from './pages.ts';
import { action } from './run-command.ts';

type Draft = RouterOutputs['drafts']['list']['data'][number];

/** A draft's values on one line; a terminal's table cuts it to fit. */
const preview = (draft: Draft) =>
  Object.entries(draft.data)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');

const columns: Column<Draft>[] = [
  { header: 'ID', value: (d) => d.id },
  { header: 'SAVED', value: (d) => d.updated_at, time: true },
  { header: 'EXPIRES', value: (d) => d.expires_at, time: true, optional: true },
  { header: 'DATA', value: (d) => preview(d), shrink: true },
];

const draftsListCommand = () =>
  paged(new Command('list').argument('<form_id>', 'the form'))
    .description("A form's drafts, newest first: answers visitors began on the form's page and have not sent (needs a session)")
    .action(
      action(async (ctx, formId, flags) => {
        const api = await sessionApi(ctx);
        const page = await listed(flags, (input) => api.drafts.list.query({ form_id: formId, ...input }));
        ctx.out.result(page, (page) => {
          if (page.data.length === 0) return ctx.out.line(`No drafts on ${formId}.`);
          ctx.out.table(columns, page.data);
          noteNextPage(ctx, page.next_cursor, formId);
        });
      }),
    );

const draftsDeleteCommand = () =>
  new Command('delete')
    .description('Delete drafts by id: a visitor who comes back finds a blank form (needs a session)')
    .argument('<form_id>', 'the form')
    .argument('<draft_ids...>', 'the drafts, e.g. drf_… (up to 100)')
    .action(
      action(async (ctx, formId, ids) => {
        const api = await sessionApi(ctx);
        const answer = await api.drafts.delete.mutate({ form_id: formId, ids });
        ctx.out.result(answer, ({ deleted }) => ctx.out.line(`Deleted ${deleted} draft${deleted === 1 ? '' : 's'} of ${formId}.`));
      }),
    );

export const draftsCommand = () =>
  commandGroup(
    'drafts',
    "Read and delete the drafts a form's page keeps (forms create|update --drafts <days> turns them on)",
    [draftsListCommand(), draftsDeleteCommand()],
    ['lfk drafts list form_…', 'lfk drafts list form_… --all --json > drafts.json', 'lfk drafts delete form_… drf_… drf_…'],
  );
