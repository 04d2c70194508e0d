import { PAGE_LIMIT } from '@lfk/db/constants';
import { Command } from '@commander-js/extra-typings';
import type { RouterOutputs } from '@lfk/client';
import { type CommandContext, keyApi, sessionApi, signedIn } from '../command-context.ts';
import { usageError } from '../errors.ts';
import { inertValue } from '../output/inert.ts';
import type { Column } from '../output/table.ts';
import { valuesFromFlags } from '../input/values.ts';
import { collect, commandGroup, paged } from './options.ts';
import { listed, noteNextPage } from './pages.ts';
import { action, callAndShow } from './run-command.ts';

const submissionsCreateCommand = () =>
  new Command('create')
    .description('Submit values to a form, authenticated with the API key')
    .argument('<form_id>', 'the form')
    .option('--data <name=value>', 'a value; repeat for each field', collect)
    .option('--data-json <file|->', 'the values as a JSON object, from a file or - for standard input')
    .option('--idempotency-key <key>', 'reuse to make a repeated command submit at most once')
    .action(
      action(async (ctx, formId, flags) => {
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

type Submission = RouterOutputs['submissions']['list']['data'][number];

const columns: Column<Submission>[] = [
  { header: 'ID', value: (s) => s.id },
  { header: 'CREATED', value: (s) => s.created_at, time: true },
  { header: 'SOURCE', value: (s) => s.source, optional: true },
  { header: 'DATA', value: (s) => preview(s.data), shrink: true },
];

/** How often --follow asks for new submissions. */
const FOLLOW_EVERY_MS = 2000;

/**
 * Prints the newest page, then every submission that arrives, oldest first, until Ctrl-C. With
 * --json, one submission object per line (NDJSON), so a script can read them as they come.
 */
async function follow(ctx: CommandContext, formId: string): Promise<never> {
  // Each request gets the whole timeout: this command runs for as long as it is left to.
  const api = await sessionApi(ctx, 'request');
  const seen = new Set<string>();
  ctx.out.note(ctx.out.errorStyle.dim(`Watching ${formId} for submissions (Ctrl-C to stop).`));
  for (;;) {
    const page = await api.submissions.list.query({ form_id: formId, limit: PAGE_LIMIT.max });
    const arrived = page.data.filter((s) => !seen.has(s.id)).reverse();
    if (ctx.out.json) {
      for (const submission of arrived) ctx.out.line(JSON.stringify(submission));
    } else if (arrived.length > 0) {
      // The header once, with the first rows; later rows continue the same table.
      if (seen.size === 0) ctx.out.table(columns, inertValue(arrived));
      else ctx.out.rows(columns, inertValue(arrived));
    }
    for (const submission of arrived) seen.add(submission.id);
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
  }
}

const submissionsListCommand = () =>
  paged(new Command('list').argument('<form_id>', 'the form'))
    .description("A form's submissions, newest first (needs a session)")
    .option('--follow', 'keep watching: print submissions as they arrive, oldest first (Ctrl-C to stop)')
    .action(
      action(async (ctx, formId, flags) => {
        if (flags.follow) {
          if (flags.all || flags.cursor !== undefined) throw usageError('conflicting_flags', '--follow starts from the newest submissions: leave out --all and --cursor.');
          return follow(ctx, formId);
        }
        const api = await sessionApi(ctx);
        const page = await listed(flags, (input) => api.submissions.list.query({ form_id: formId, ...input }));
        ctx.out.result(page, (page) => {
          if (page.data.length === 0) return ctx.out.line(`No submissions on ${formId} yet.`);
          ctx.out.table(columns, page.data);
          noteNextPage(ctx, page.next_cursor, formId);
        });
      }),
    );

const submissionsGetCommand = () =>
  new Command('get')
    .description('One submission, every value in full (needs a session)')
    .argument('<form_id>', 'the form')
    .argument('<submission_id>', 'the submission, e.g. sub_…')
    .action(
      callAndShow(
        signedIn,
        ({ api }, formId, submissionId) => api.submissions.get.query({ form_id: formId, submission_id: submissionId }),
        (submission, { out }) => {
          out.record([
            ['id', submission.id],
            ['form', submission.form_id],
            ['source', submission.source],
            ['received', submission.created_at],
          ]);
          out.line();
          // Each value whole, on lines of its own: a textarea's line breaks are kept, indented.
          for (const [name, value] of Object.entries(submission.data)) {
            const text = typeof value === 'string' ? value : JSON.stringify(value);
            out.line(`${out.style.bold(name)}:\n${text.split('\n').map((line) => `  ${line}`).join('\n')}`);
          }
        },
      ),
    );

export const submissionsCommand = () =>
  commandGroup(
    'submissions',
    'Submit to a form with an API key, and read its submissions',
    [submissionsCreateCommand(), submissionsListCommand(), submissionsGetCommand()],
    [
      'lfk submissions create form_… --data email=ada@example.com --data message=Hello',
      'echo \'{"email":"ada@example.com","age":36}\' | lfk submissions create form_… --data-json -',
      'lfk submissions list form_… --json',
      'lfk submissions get form_… sub_…',
    ],
  );
