import { Command, Option, type OptionValues } from '@commander-js/extra-typings';
import type { RouterInputs, RouterOutputs } from '@lfk/client';
import { FIELD_TYPES, SUBMISSION_MODES } from '@lfk/db/constants';
import { type CommandContext, formsApi, inWorkspace, resolveWorkspace, withClient } from '../command-context.ts';
import { usageError } from '../errors.ts';
import { parseFieldShorthand, schemaFromFlags } from '../input/fields.ts';
import { canPrompt, confirmOrStop } from '../terminal/prompts.ts';
import type { RecordEntry } from '../output/table.ts';
import { collect, commandGroup, examples } from './options.ts';
import { action, callAndShow } from './run-command.ts';
import { workspaceListCommand } from './workspace-list.ts';

/** As the help lists them: a select field is given with its options. */
const FIELD_TYPES_HELP = FIELD_TYPES.map((type) => (type === 'select' ? 'select=a,b' : type)).join(' ');

/** The flags `forms create` and `forms update` share, one for each field of the form. */
const withFormOptions = <Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) =>
  command
    .option('--name <name>', "the form's name")
    .option('--field <name:type[:required]>', `a field; repeat for each (types: ${FIELD_TYPES_HELP})`, collect)
    .option('--schema <file|->', 'the fields as a JSON array, from a file or - for standard input')
    .addOption(new Option('--mode <mode>', 'who may submit').choices(SUBMISSION_MODES))
    .option('--origin <origin>', 'an origin allowed to submit from a browser; repeat for each', collect)
    .option('--redirect-url <url>', 'where a browser goes after submitting')
    .option('--notify-email <address>', 'email each submission here (once the address is verified)')
    .option('--project <project_id>', 'the project the form belongs to');

type NoOptions = Record<never, never>;
type FormFlags = ReturnType<ReturnType<typeof withFormOptions<[], NoOptions, NoOptions>>['opts']>;

/** The body fields the flags set, in the API's names; `false` (update's `--no-…`) clears a value. */
async function formBody(flags: Omit<FormFlags, 'redirectUrl' | 'notifyEmail'> & { redirectUrl?: string | false; notifyEmail?: string | false }) {
  const body: Omit<RouterInputs['forms']['update'], 'form_id'> = {};
  if (flags.name !== undefined) body.name = flags.name;
  const schema = await schemaFromFlags(flags.field, flags.schema);
  // The server checks the schema's shape and answers field by field; the CLI only carries it.
  if (schema) body.schema = schema as NonNullable<typeof body.schema>;
  if (flags.mode !== undefined) body.submission_mode = flags.mode;
  if (flags.origin?.length) body.allowed_origins = flags.origin;
  if (flags.redirectUrl !== undefined) body.redirect_url = flags.redirectUrl === false ? null : flags.redirectUrl;
  if (flags.notifyEmail !== undefined) body.notify_email = flags.notifyEmail === false ? null : flags.notifyEmail;
  if (flags.project !== undefined) body.project_id = flags.project;
  return body;
}

type Form = RouterOutputs['forms']['get'];

/** A form's settings, then its fields as a table. */
function printForm(form: Form, ctx: CommandContext): void {
  const { style } = ctx.out;
  const notify: RecordEntry = !form.notify_email
    ? ['notify email', 'none']
    : form.notify_email_verified
      ? ['notify email', `${form.notify_email} (verified)`, style.green]
      : ['notify email', `${form.notify_email} (not verified)`, style.yellow];
  ctx.out.record([
    ['id', form.id],
    ['name', form.name],
    ['state', form.state],
    ['workspace', form.workspace_id ?? '-'],
    ['project', form.project_id ?? '-'],
    ['submission mode', form.submission_mode],
    ['allowed origins', form.allowed_origins.join(', ') || 'none'],
    notify,
    ['redirect url', form.redirect_url ?? 'none'],
    ['created', form.created_at],
    ['updated', form.updated_at],
  ]);
  ctx.out.line();
  ctx.out.table(
    [
      { header: 'FIELD', value: (f) => f.name },
      { header: 'TYPE', value: (f) => f.type },
      { header: 'REQUIRED', value: (f) => (f.required ? 'yes' : 'no') },
      { header: 'LABEL', value: (f) => f.label ?? '', shrink: true },
      { header: 'OPTIONS', value: (f) => f.options?.join(', ') ?? '', shrink: true },
    ],
    form.schema,
  );
}

const formsCreateCommand = () =>
  withFormOptions(new Command('create'))
    .description("Create a form: in the key's workspace, the default workspace, or unclaimed without credentials")
    .option('--idempotency-key <key>', 'reuse to make a repeated command create at most one form')
    .action(
      action(async (ctx, flags) => {
        const body = await formBody(flags);
        if (!body.name) throw usageError('missing_name', 'A form needs --name.');
        if (!body.schema) throw usageError('missing_schema', 'A form needs fields: --field name:type[:required] (repeatable) or --schema FILE|-.');
        const api = await formsApi(ctx);
        const { settings } = ctx;
        // A key creates in its own workspace; a session must name one; with neither the form is born unclaimed.
        let workspaceId: string | undefined;
        if (settings.apiKey) workspaceId = settings.workspace?.id;
        else if (settings.profile.session_token) workspaceId = await resolveWorkspace(ctx, api);
        // One key per command run: if the answer is lost and the request is sent again, the server
        // answers from the first create instead of making a second form.
        const idempotencyKey = flags.idempotencyKey ?? crypto.randomUUID();
        const form = await api.forms.create.mutate(
          { ...body, name: body.name, schema: body.schema, ...(workspaceId ? { workspace_id: workspaceId } : {}) },
          { context: { idempotencyKey } },
        );
        ctx.out.result(form, (form) => {
          ctx.out.note(`Created form ${form.id}${form.state === 'unclaimed' ? ' (unclaimed)' : ` in ${form.workspace_id}`}.`);
          printForm(form, ctx);
          if (form.claim_token) {
            ctx.out.line();
            ctx.out.line(`claim token  ${ctx.out.style.bold(form.claim_token)}`);
            ctx.out.note(ctx.out.errorStyle.yellow(
              `This is the only time the claim token is shown. Claim the form with 'lfk forms claim ${form.id} --claim-token <token>'.`,
            ));
          }
        });
      }),
    );

const formsListCommand = () =>
  workspaceListCommand("The workspace's forms, newest first (needs a session)", (api) => api.forms.list, [
    { header: 'ID', value: (f) => f.id },
    { header: 'NAME', value: (f) => f.name, shrink: true },
    { header: 'MODE', value: (f) => f.submission_mode, optional: true },
    { header: 'FIELDS', value: (f) => String(f.schema.length), optional: true },
    { header: 'NOTIFY', value: (f) => (f.notify_email ? `${f.notify_email}${f.notify_email_verified ? '' : ' (unverified)'}` : ''), shrink: true },
    { header: 'CREATED', value: (f) => f.created_at, time: true, optional: true },
  ], (workspaceId) => `No forms in ${workspaceId}. Create one with 'lfk forms create'.`);

const formsGetCommand = () =>
  new Command('get')
    .description('Show a form')
    .argument('<form_id>', 'the form, e.g. form_…')
    .action(callAndShow(withClient(formsApi), ({ api }, formId) => api.forms.get.query({ form_id: formId }), printForm));

interface ListEdits {
  add?: string[];
  remove?: string[];
}

/** `list` with `remove` taken out and `add` put at the end; a name to remove must be there, one to add must not. */
function edited<T>(list: T[], nameOf: (item: T) => string, edits: { add: T[]; remove: string[] }, what: string, flag: string): T[] {
  const names = new Set(list.map(nameOf));
  for (const name of edits.remove) {
    if (!names.has(name)) throw usageError('not_in_form', `The form has no ${what} ${JSON.stringify(name)} to remove (--remove-${flag}).`);
  }
  const kept = list.filter((item) => !edits.remove.includes(nameOf(item)));
  for (const item of edits.add) {
    if (kept.some((k) => nameOf(k) === nameOf(item))) {
      throw usageError('already_in_form', `The form already has the ${what} ${JSON.stringify(nameOf(item))} (--add-${flag}).`);
    }
    kept.push(item);
  }
  return kept;
}

/** An origin as the server stores it (`https://Example.com/` is `https://example.com`); the server judges the rest. */
function asOrigin(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}

const hasEdits = (edits: ListEdits) => (edits.add?.length ?? 0) + (edits.remove?.length ?? 0) > 0;

/**
 * Replacing a form's whole list of fields or origins drops what is not named again: said plainly,
 * and asked about on a terminal (`--yes` answers for you); a script is told on stderr.
 */
async function confirmReplacement(ctx: CommandContext, what: string, before: string[], after: string[], yes: boolean | undefined) {
  const dropped = before.filter((name) => !after.includes(name));
  if (dropped.length === 0) return;
  const sentence = `This replaces every ${what} of the form: ${dropped.map((d) => JSON.stringify(d)).join(', ')} will be removed.`;
  if (yes || !canPrompt()) {
    ctx.out.note(`warning: ${sentence} (To change one, use --add-${what} or --remove-${what}.)`);
    return;
  }
  await confirmOrStop(`${sentence} Continue?`, `--yes to replace every ${what} without asking`, 'Nothing was changed.');
}

const formsUpdateCommand = () =>
  withFormOptions(
    new Command('update')
      .description("Change some of a form's settings; --field and --origin replace the whole list, --add-…/--remove-… change one")
      .argument('<form_id>', 'the form'),
  )
    .option('--add-field <name:type[:required]>', 'add a field, keeping the others; repeatable', collect)
    .option('--remove-field <name>', 'remove the field of this name; repeatable', collect)
    .option('--add-origin <origin>', 'allow one more origin, keeping the others; repeatable', collect)
    .option('--remove-origin <origin>', 'no longer allow this origin; repeatable', collect)
    .option('--no-redirect-url', 'remove the redirect URL')
    .option('--no-notify-email', 'stop emailing submissions')
    .option('-y, --yes', 'replace a whole list of fields or origins without asking')
    .addHelpText('after', examples([
      'lfk forms update form_… --add-field phone:tel',
      'lfk forms update form_… --remove-field fax --add-origin https://www.example.com',
      'lfk forms update form_… --field email:email:required --field message:textarea   # the form has exactly these two',
    ]))
    .action(
      action(async (ctx, formId, flags) => {
        const fieldEdits = { add: flags.addField, remove: flags.removeField };
        const originEdits = { add: flags.addOrigin, remove: flags.removeOrigin };
        if (hasEdits(fieldEdits) && (flags.field?.length || flags.schema !== undefined)) {
          throw usageError('conflicting_flags', 'Give the whole list of fields (--field, --schema) or changes to it (--add-field, --remove-field), not both.');
        }
        if (hasEdits(originEdits) && flags.origin?.length) {
          throw usageError('conflicting_flags', 'Give the whole list of origins (--origin) or changes to it (--add-origin, --remove-origin), not both.');
        }
        const body = await formBody(flags);
        const additions = (flags.addField ?? []).map(parseFieldShorthand);
        if (Object.keys(body).length === 0 && !hasEdits(fieldEdits) && !hasEdits(originEdits)) {
          throw usageError('nothing_to_update', 'Say what to change: see lfk forms update --help.');
        }
        const api = await formsApi(ctx);
        const replacing = body.schema !== undefined || body.allowed_origins !== undefined;
        if (hasEdits(fieldEdits) || hasEdits(originEdits) || replacing) {
          // The lists are edited from the form as it is now; a change made by someone in between is
          // overwritten, as with any whole-list update.
          const current = await api.forms.get.query({ form_id: formId });
          const fieldNames = current.schema.map((f) => f.name);
          if (hasEdits(fieldEdits)) {
            body.schema = edited(current.schema, (f) => f.name, { add: additions as typeof current.schema, remove: flags.removeField ?? [] }, 'field', 'field');
          } else if (body.schema) {
            await confirmReplacement(ctx, 'field', fieldNames, body.schema.map((f) => f.name), flags.yes);
          }
          if (hasEdits(originEdits)) {
            const origins = { add: (flags.addOrigin ?? []).map(asOrigin), remove: (flags.removeOrigin ?? []).map(asOrigin) };
            body.allowed_origins = edited(current.allowed_origins, String, origins, 'origin', 'origin');
          } else if (body.allowed_origins) {
            await confirmReplacement(ctx, 'origin', current.allowed_origins, body.allowed_origins, flags.yes);
          }
        }
        // A client of its own after any question, so time spent answering is not spent from the timeout.
        const form = await (await formsApi(ctx)).forms.update.mutate({ form_id: formId, ...body });
        ctx.out.result(form, (form) => {
          ctx.out.note(`Updated form ${form.id}.`);
          printForm(form, ctx);
        });
      }),
    );

const formsResendVerificationCommand = () =>
  new Command('resend-verification')
    .description("Send a new verification link to the form's notify email")
    .argument('<form_id>', 'the form')
    .action(
      callAndShow(
        withClient(formsApi),
        ({ api }, formId) => api.forms.resendVerification.mutate({ form_id: formId }),
        (sent, { out }) => out.line(`Sent a new verification link to ${sent.sent_to}.`),
      ),
    );

const formsClaimCommand = () =>
  new Command('claim')
    .description('Claim an unclaimed form into your workspace with its claim token (needs a session)')
    .argument('<form_id>', 'the form')
    .requiredOption('--claim-token <token>', 'the lfc_… token printed when the form was created')
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, formId, flags) => api.forms.claim.mutate({ form_id: formId, claim_token: flags.claimToken, workspace_id: workspaceId }),
        (form, ctx) => {
          ctx.out.note(`Claimed form ${form.id} into ${form.workspace_id}.`);
          printForm(form, ctx);
        },
      ),
    );

export const formsCommand = () =>
  commandGroup(
    'forms',
    'Create and manage forms (with an API key or a session)',
    [formsCreateCommand(), formsListCommand(), formsGetCommand(), formsUpdateCommand(), formsResendVerificationCommand(), formsClaimCommand()],
    [
      'lfk forms create --name Contact --field email:email:required --field message:textarea --origin https://example.com',
      'lfk forms create --name Signup --schema schema.json --mode api_key',
      'lfk forms create --name Plans --field plan:select=free,pro:required',
      'lfk forms update form_… --notify-email team@example.com',
      'lfk forms get form_… --json',
      'lfk forms claim form_… --claim-token lfc_…',
    ],
  );
