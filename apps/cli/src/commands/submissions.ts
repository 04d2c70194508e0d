import { createWriteStream } from 'node:fs';
import { link, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describeBytes, EXPORT_FORMATS, PAGE_LIMIT, SUBMISSION_STATUSES } from '@lfk/vocabulary';
import { Command, Option, type OptionValues } from '@commander-js/extra-typings';
import type { RouterInputs, RouterOutputs } from '@lfk/client';
import { type CommandContext, keyApi, requireApiKey, requireSession, sessionApi, signedIn } from '../command-context.ts';
import { io } from '../terminal/io.ts';
import { confirmOrStop } from '../terminal/prompts.ts';
import { CliError, usageError } from '../errors.ts';
import { inertValue } from '../output/inert.ts';
import type { Column } from '../output/table.ts';
import { valuesFromFlags } from '../input/values.ts';
import { filesFromFlags, multipartValues } from '../input/files.ts';
import { collect, commandGroup, paged } from './options.ts';
import { listed, noteNextPage } from './pages.ts';
import { action, callAndShow } from './run-command.ts';
import { keepWatching } from './keep-watching.ts';
import { timeOrAgo } from '../input/durations.ts';

const submissionsCreateCommand = () =>
  new Command('create')
    .description('Submit values and files to a form, authenticated with the API key')
    .argument('<form_id>', 'the form')
    .option('--data <name=value>', 'a value; repeat for each field', collect)
    .option('--data-json <file|->', 'the values as a JSON object, from a file or - for standard input')
    .option('--file <field=path>', 'a file for a file field, streamed from disk (- reads standard input); repeat for each file', collect)
    .option('--idempotency-key <key>', 'reuse to make a repeated command submit at most once')
    .action(
      action(async (ctx, formId, flags) => {
        if (flags.dataJson === '-' && flags.file?.some((pair) => pair.endsWith('=-'))) {
          throw usageError('conflicting_flags', 'Only one of --data-json and --file can read standard input (-).');
        }
        const apiKey = requireApiKey(ctx);
        const files = await filesFromFlags(flags.file);
        const data = await valuesFromFlags(flags.data, flags.dataJson, Object.keys(files).length === 0);
        const idempotencyKey = flags.idempotencyKey ?? crypto.randomUUID();
        const show = (created: { id: string; form_id: string }) =>
          ctx.out.result(created, (created) => ctx.out.line(`Created submission ${created.id} on ${created.form_id}.`));
        if (Object.keys(files).length > 0) {
          // tRPC carries no files: the REST route takes them as multipart, with the same key.
          const [{ submitFiles }, { toCliError }] = await Promise.all([import('../http/api.ts'), import('../http/api-errors.ts')]);
          const submission = { data: multipartValues(data), files, idempotencyKey };
          return show(
            await submitFiles(ctx.settings, apiKey, formId, submission).catch((error: unknown) => {
              throw toCliError(error, ctx.settings.baseUrl, ctx.settings.timeoutMs);
            }),
          );
        }
        // Server-side submissions authenticate with a key; a session is not one, so it is not sent.
        const api = await keyApi(ctx);
        show(await api.submissions.create.mutate({ form_id: formId, data }, { context: { idempotencyKey } }));
      }),
    );

type Submission = RouterOutputs['submissions']['list']['data'][number];

/** A value as shown: a file field's files by their names (its value on the wire is their ids). */
function shownValue(value: unknown, files: Submission['files']): string {
  if (Array.isArray(value) && value.length > 0) {
    const names = value.map((id) => files.find((file) => file.id === id)?.name);
    if (names.every((name) => name !== undefined)) return names.join(', ');
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A submission's values on one line; a terminal's table cuts it to fit. */
const preview = (submission: Submission) =>
  Object.entries(submission.data)
    .map(([name, value]) => `${name}=${shownValue(value, submission.files)}`)
    .join(' ');

const columns: Column<Submission>[] = [
  { header: 'ID', value: (s) => s.id },
  { header: 'CREATED', value: (s) => s.created_at, time: true },
  { header: 'SOURCE', value: (s) => s.source, optional: true },
  { header: 'SPAM', value: (s) => s.spam_reason ?? '', optional: true },
  // The content filter's score: how near spam it read, kept or not.
  { header: 'SCORE', value: (s) => (s.spam_score === null ? '' : s.spam_score.toFixed(2)), optional: true },
  { header: 'DATA', value: (s) => preview(s), shrink: true },
];

/** How often --follow asks for new submissions. */
const FOLLOW_EVERY_MS = 2000;

/**
 * Prints the newest page, then every submission that arrives, oldest first, until Ctrl-C; a server
 * restart or outage is waited out (keepWatching). With --json, one submission object per line
 * (NDJSON), so a script can read them as they come.
 */
async function follow(ctx: CommandContext, formId: string, filters: Filters): Promise<never> {
  // Each request gets the whole timeout: this command runs for as long as it is left to.
  const api = await sessionApi(ctx, 'request');
  const seen = new Set<string>();
  ctx.out.note(ctx.out.errorStyle.dim(`Watching ${formId} for submissions (Ctrl-C to stop).`));
  return keepWatching(ctx, FOLLOW_EVERY_MS, async () => {
    let page = await api.submissions.list.query({ form_id: formId, limit: PAGE_LIMIT.max, ...filters });
    const fresh: typeof page.data = [];
    for (;;) {
      const unseen = page.data.filter((s) => !seen.has(s.id));
      fresh.push(...unseen);
      // A page ends at 100 submissions or about 1 MiB of them: while every one on it is new (and
      // this is not the first look), the next page may hold new ones too.
      if (seen.size === 0 || unseen.length < page.data.length || page.next_cursor === null) break;
      page = await api.submissions.list.query({ form_id: formId, limit: PAGE_LIMIT.max, ...filters, cursor: page.next_cursor });
    }
    const arrived = fresh.reverse();
    if (ctx.out.json) {
      for (const submission of arrived) ctx.out.line(JSON.stringify(submission));
    } else if (arrived.length > 0) {
      // The header once, with the first rows; later rows continue the same table.
      if (seen.size === 0) ctx.out.table(columns, inertValue(arrived));
      else ctx.out.rows(columns, inertValue(arrived));
    }
    for (const submission of arrived) seen.add(submission.id);
  });
}

type Filters = Pick<RouterInputs['submissions']['list'], 'status' | 'since' | 'until' | 'q'>;

/** The filters a list and an export share: which submissions, as the API names them. */
const withFilters = <Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(command: Command<Args, Opts, Globals>) =>
  command
    .addOption(new Option('--status <status>', 'real submissions, or spam').choices(SUBMISSION_STATUSES))
    .option('--since <time>', 'from this time on: a duration back from now (10m, 2h, 7d) or a time (2026-11-01T00:00:00Z)')
    .option('--until <time>', 'before this time: a duration back from now or a time')
    .option('--q <text>', 'with a value holding this text, whatever its case');

function filtersOf(flags: { status?: (typeof SUBMISSION_STATUSES)[number]; since?: string; until?: string; q?: string }): Filters {
  const now = new Date();
  return {
    ...(flags.status ? { status: flags.status } : {}),
    ...(flags.since !== undefined ? { since: timeOrAgo('--since', flags.since, now) } : {}),
    ...(flags.until !== undefined ? { until: timeOrAgo('--until', flags.until, now) } : {}),
    ...(flags.q !== undefined ? { q: flags.q } : {}),
  };
}

const submissionsListCommand = () =>
  withFilters(paged(new Command('list').argument('<form_id>', 'the form')))
    .description("A form's submissions, newest first (needs a session)")
    .option('--follow', 'keep watching: print submissions as they arrive, oldest first (Ctrl-C to stop)')
    .action(
      action(async (ctx, formId, flags) => {
        const filters = filtersOf(flags);
        if (flags.follow) {
          if (flags.all || flags.cursor !== undefined)
            throw usageError('conflicting_flags', '--follow starts from the newest submissions: leave out --all and --cursor.');
          return follow(ctx, formId, filters);
        }
        const api = await sessionApi(ctx);
        const page = await listed(flags, (input) => api.submissions.list.query({ form_id: formId, ...filters, ...input }));
        ctx.out.result(page, (page) => {
          const filtered = Object.keys(filters).length > 0;
          if (page.data.length === 0) return ctx.out.line(filtered ? `No submissions on ${formId} match.` : `No submissions on ${formId} yet.`);
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
            ['status', submission.status === 'spam' ? `spam (${submission.spam_reason})` : 'ok'],
            ['spam score', submission.spam_score === null ? 'not scored' : submission.spam_score.toFixed(2)],
            ['received', submission.created_at],
          ]);
          // What the content filter read, a sentence each: why it is (or nearly is) spam.
          for (const reason of submission.spam_reasons) out.line(`  ${out.style.dim(reason.code)}  ${reason.message}`);
          out.line();
          // Each value whole, on lines of its own: a textarea's line breaks are kept, indented.
          for (const [name, value] of Object.entries(submission.data)) {
            const text = shownValue(value, submission.files);
            out.line(
              `${out.style.bold(name)}:\n${text
                .split('\n')
                .map((line) => `  ${line}`)
                .join('\n')}`,
            );
          }
          if (submission.files.length === 0) return;
          out.line();
          out.table(
            [
              { header: 'FILE', value: (f) => f.id },
              { header: 'FIELD', value: (f) => f.field },
              { header: 'NAME', value: (f) => f.name, shrink: true },
              { header: 'SIZE', value: (f) => describeBytes(f.size) },
              { header: 'TYPE', value: (f) => f.content_type },
              // A quarantined file cannot be downloaded: what the scanner found says why.
              { header: 'STATUS', value: (f) => (f.status === 'quarantined' ? `quarantined: ${f.malware}` : f.status) },
            ],
            submission.files,
          );
          out.line(out.style.dim(`Download one with 'lfk submissions download ${submission.form_id} ${submission.id} <file_id>'.`));
        },
      ),
    );

const submissionsDeleteCommand = () =>
  new Command('delete')
    .description('Delete submissions, with their emails and webhook deliveries: by id, or every one before a time (needs a session)')
    .argument('<form_id>', 'the form')
    .argument('[submission_ids...]', 'the submissions, e.g. sub_… (up to 100)')
    .option('--before <time>', 'every submission (spam too) that arrived before this time (ISO 8601)')
    .option('-y, --yes', 'delete everything before --before without asking')
    .action(
      action(async (ctx, formId, ids, flags) => {
        if (ids.length > 0 === (flags.before !== undefined)) {
          throw usageError('conflicting_flags', 'Name the submissions to delete, or give --before <time>: one of the two.');
        }
        if (flags.before !== undefined && !flags.yes) {
          await confirmOrStop(
            `Delete every submission of ${formId} that arrived before ${flags.before}? This cannot be undone.`,
            '--yes to delete without asking',
            'Nothing was deleted.',
          );
        }
        // A client of its own after the question, so time spent answering is not spent from the timeout.
        const api = await sessionApi(ctx);
        const answer =
          ids.length === 1
            ? await api.submissions.delete.mutate({ form_id: formId, submission_id: ids[0]! }).then(() => ({ deleted: 1 }))
            : await api.submissions.deleteMany.mutate({ form_id: formId, ...(ids.length > 0 ? { ids } : { before: flags.before! }) });
        ctx.out.result(answer, ({ deleted }) => ctx.out.line(`Deleted ${deleted} submission${deleted === 1 ? '' : 's'} of ${formId}.`));
      }),
    );

/** `lfk submissions spam|not-spam`: one call, the submission as it now is. */
const markCommand = (name: 'spam' | 'not-spam') =>
  new Command(name)
    .description(
      name === 'spam'
        ? "Mark a submission as spam: its email and webhook deliveries not yet sent are cancelled; the workspace's filter learns (needs a session)"
        : "Mark a submission as not spam: what spam held back (its email, its webhooks) is sent now; the workspace's filter learns (needs a session)",
    )
    .argument('<form_id>', 'the form')
    .argument('<submission_id>', 'the submission')
    .action(
      callAndShow(
        signedIn,
        ({ api }, formId, submissionId) =>
          (name === 'spam' ? api.submissions.markSpam : api.submissions.markNotSpam).mutate({ form_id: formId, submission_id: submissionId }),
        (submission, { out }) => out.line(`Marked ${submission.id} as ${submission.status === 'spam' ? 'spam' : 'not spam'}.`),
      ),
    );

const submissionsExportCommand = () =>
  withFilters(new Command('export').argument('<form_id>', 'the form'))
    .description("A form's submissions as a CSV or JSON Lines file, oldest first, streamed (needs a session)")
    .addOption(new Option('--format <format>', 'the file format').choices(EXPORT_FORMATS).default('csv' as const))
    .option('--bom', 'start the file with a UTF-8 byte order mark, which Excel needs to read UTF-8')
    .option('-o, --output <file>', 'write the file here instead of to standard output')
    .action(
      action(async (ctx, formId, flags) => {
        const sessionToken = requireSession(ctx.settings);
        const [{ exportFile }, { toCliError }] = await Promise.all([import('../http/api.ts'), import('../http/api-errors.ts')]);
        const query = { format: flags.format, ...(flags.bom ? { bom: true } : {}), ...filtersOf(flags) };
        let body: ReadableStream<Uint8Array>;
        try {
          body = await exportFile(ctx.settings, sessionToken, formId, query);
        } catch (error) {
          const failure = toCliError(error, ctx.settings.baseUrl, ctx.settings.timeoutMs);
          // Too many of this person's exports stream already, from any terminal or the dashboard.
          throw failure.code === 'rate_limited' ? failure.withHint(busyExportsHint(failure.retryAfterSeconds)) : failure;
        }
        // Row by row as they arrive: memory stays flat, and a pipe reads the first rows at once.
        const destination = flags.output ? createWriteStream(flags.output) : toStdout();
        await pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>), destination);
        if (flags.output) ctx.out.note(`Wrote ${flags.format.toUpperCase()} to ${flags.output}.`);
      }),
    );

/**
 * A file's name as a file on this machine: the server has taken out paths and control characters;
 * separators and leading dots are taken out again here, so it names a visible file in the folder.
 */
function localName(name: string, fileId: string): string {
  const cleaned = name
    .replace(/[/\\\p{Cc}]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  return cleaned === '' ? fileId : cleaned;
}

/** Where `-o` says (a folder takes the file's own name), else the file's own name in the current folder. */
async function destinationOf(output: string | undefined, name: string): Promise<string> {
  if (output === undefined) return name;
  const folder =
    output.endsWith('/') ||
    (await stat(output).then(
      (found) => found.isDirectory(),
      () => false,
    ));
  return folder ? join(output, name) : output;
}

const submissionsDownloadCommand = () =>
  new Command('download')
    .description('One file of a submission, streamed to a file (its own name, by default) or standard output (needs a session)')
    .argument('<form_id>', 'the form')
    .argument('<submission_id>', 'the submission, e.g. sub_…')
    .argument('<file_id>', "the file, e.g. file_… ('lfk submissions get' lists them)")
    .option('-o, --output <path>', 'write it here (a folder keeps its name); - for standard output')
    .option('--force', 'overwrite a file that is already there')
    .action(
      action(async (ctx, formId, submissionId, fileId, flags) => {
        const sessionToken = requireSession(ctx.settings);
        const [{ fetchFile }, { toCliError }] = await Promise.all([import('../http/api.ts'), import('../http/api-errors.ts')]);
        const file = await fetchFile(ctx.settings, sessionToken, { formId, submissionId, fileId }).catch((error: unknown) => {
          throw toCliError(error, ctx.settings.baseUrl, ctx.settings.timeoutMs);
        });
        const bytes = Readable.fromWeb(file.body as import('node:stream/web').ReadableStream<Uint8Array>);
        const written = { name: file.name, size: file.size, content_type: file.contentType };
        if (flags.output === '-') {
          await pipeline(bytes, toStdout());
          return;
        }
        const path = await destinationOf(flags.output, localName(file.name, fileId));
        try {
          await writeWhole(bytes, path, flags.force === true);
        } catch (error) {
          const { code, syscall } = error as NodeJS.ErrnoException;
          if (code === 'EEXIST') throw usageError('file_exists', `${path} is already there.`, 'Give --force to overwrite it, or -o another path.');
          // This machine's file system said no (no such folder, no space, no permission)…
          if (syscall) throw new CliError('write_failed', `Cannot write ${path}: ${(error as Error).message}.`);
          // …or the answer broke off on its way.
          throw toCliError(error, ctx.settings.baseUrl, ctx.settings.timeoutMs);
        }
        ctx.out.result({ ...written, path }, (view) => ctx.out.line(`Wrote ${view.path} (${describeBytes(view.size)}, ${view.content_type}).`));
      }),
    );

/**
 * Writes `bytes` to `path` through a file of its own beside it, put in place once whole: an
 * interrupted download leaves nothing half-written, and without `force` an existing file is
 * never replaced (a hard link fails where a file is, EEXIST; a rename would replace it).
 */
async function writeWhole(bytes: Readable, path: string, force: boolean): Promise<void> {
  if (
    !force &&
    (await stat(path).then(
      () => true,
      () => false,
    ))
  ) {
    bytes.destroy();
    throw Object.assign(new Error(`${path} exists`), { code: 'EEXIST' });
  }
  const partial = join(dirname(path), `.${basename(path)}.${crypto.randomUUID()}.part`);
  try {
    await pipeline(bytes, createWriteStream(partial, { flags: 'wx' }));
    if (force) await rename(partial, path);
    else await link(partial, path);
  } finally {
    await rm(partial, { force: true });
  }
}

function busyExportsHint(retryAfterSeconds: number | undefined): string {
  const when = retryAfterSeconds === undefined ? 'in a little while' : `in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`;
  return `Let one of your exports finish (those of other terminals and the dashboard count too), or stop it, then try again ${when}.`;
}

/** Standard output as a pipeline's end, left open when the file is written (the run's, not the process's, in tests). */
function toStdout(): Writable {
  const { stdout } = io();
  return new Writable({
    write(chunk, _encoding, done) {
      if (stdout.write(chunk)) done();
      else stdout.once('drain', () => done());
    },
  });
}

export const submissionsCommand = () =>
  commandGroup(
    'submissions',
    'Submit to a form with an API key; read, mark, delete and export its submissions, and download their files',
    [
      submissionsCreateCommand(),
      submissionsListCommand(),
      submissionsGetCommand(),
      submissionsDeleteCommand(),
      markCommand('spam'),
      markCommand('not-spam'),
      submissionsExportCommand(),
      submissionsDownloadCommand(),
    ],
    [
      'lfk submissions create form_… --data email=ada@example.com --data message=Hello',
      'lfk submissions create form_… --data name=Ada --file cv=./cv.pdf --file photos=a.png --file photos=b.png',
      'echo \'{"email":"ada@example.com","age":36}\' | lfk submissions create form_… --data-json -',
      'lfk submissions list form_… --json',
      'lfk submissions list form_… --status spam --q casino',
      'lfk submissions get form_… sub_…',
      'lfk submissions download form_… sub_… file_… -o ~/Downloads/',
      'lfk submissions delete form_… sub_… sub_…',
      'lfk submissions delete form_… --before 2026-01-01T00:00:00Z --yes',
      'lfk submissions export form_… --output contacts.csv --bom',
      'lfk submissions export form_… --format jsonl | jq .values.email',
    ],
  );
