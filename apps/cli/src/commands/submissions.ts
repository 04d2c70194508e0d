import { Command } from '@commander-js/extra-typings';
import { keyApi, sessionApi } from '../command-context.ts';
import { valuesFromFlags } from '../input/values.ts';
import { collect, examples, paged } from './options.ts';
import { noteNextPage, pageInput } from './pages.ts';
import { runCommand } from './run-command.ts';

const submissionsCreateCommand = () =>
  new Command('create')
    .description('Submit values to a form, authenticated with the API key')
    .argument('<form_id>', 'the form')
    .option('--data <name=value>', 'a value; repeat for each field', collect)
    .option('--data-json <file|->', 'the values as a JSON object, from a file or - for standard input')
    .option('--idempotency-key <key>', 'reuse to make a repeated command submit at most once')
    .action((formId, flags, command) =>
      runCommand(command, async (ctx) => {
        const data = await valuesFromFlags(flags.data, flags.dataJson);
        // Server-side submissions authenticate with a key; a session is not one, so it is not sent.
        const api = await keyApi(ctx);
        const idempotencyKey = flags.idempotencyKey ?? crypto.randomUUID();
        const created = await api.submissions.create.mutate({ form_id: formId, data }, { context: { idempotencyKey } });
        ctx.out.result(created, (created) => ctx.out.line(`Created submission ${created.id} on ${created.form_id}.`));
      }),
    );

/** A submission's values on one line; a terminal's table cuts it to fit. */
const preview = (data: Record<string, unknown>) =>
  Object.entries(data)
    .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');

const submissionsListCommand = () =>
  paged(new Command('list').argument('<form_id>', 'the form'))
    .description("A form's submissions, newest first (needs a session)")
    .action((formId, flags, command) =>
      runCommand(command, async (ctx) => {
        const input = pageInput(flags);
        const api = await sessionApi(ctx);
        const page = await api.submissions.list.query({ form_id: formId, ...input });
        ctx.out.result(page, (page) => {
          if (page.data.length === 0) return ctx.out.line(`No submissions on ${formId} yet.`);
          ctx.out.table(
            [
              { header: 'ID', value: (s) => s.id },
              { header: 'CREATED', value: (s) => s.created_at, time: true },
              { header: 'SOURCE', value: (s) => s.source, optional: true },
              { header: 'DATA', value: (s) => preview(s.data), shrink: true },
            ],
            page.data,
          );
          noteNextPage(ctx, page.next_cursor, `lfk submissions list ${formId}`);
        });
      }),
    );

export const submissionsCommand = () =>
  new Command('submissions')
    .description('Submit to a form with an API key, and read its submissions')
    .addHelpText('after', examples([
      'lfk submissions create form_… --data email=ada@example.com --data message=Hello',
      'echo \'{"email":"ada@example.com","age":36}\' | lfk submissions create form_… --data-json -',
      'lfk submissions list form_… --json',
    ]))
    .addCommand(submissionsCreateCommand())
    .addCommand(submissionsListCommand());
