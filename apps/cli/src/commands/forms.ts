import type { RouterOutputs } from '@lfk/api';
import { type CommandContext, formsApi, resolveWorkspace, sessionApi } from '../command-context.ts';
import { usageError } from '../errors.ts';
import { schemaFromFlags } from '../input/fields.ts';
import type { RecordEntry } from '../output/table.ts';
import { noteNextPage, type PageFlags, pageInput } from './pages.ts';

type Form = RouterOutputs['forms']['get'];

/** The flags create and update share; `false` is commander's `--no-…`, which clears a value. */
interface FormFlags {
  name?: string;
  field?: string[];
  schema?: string;
  mode?: string;
  origin?: string[];
  redirectUrl?: string | false;
  notifyEmail?: string | false;
  project?: string;
}

const SUBMISSION_MODES = ['browser', 'api_key'] as const;

/** The body fields the flags set, in the API's names; the server validates each of them. */
async function formBody(flags: FormFlags) {
  const body: {
    name?: string;
    schema?: never[];
    submission_mode?: 'browser' | 'api_key';
    allowed_origins?: string[];
    redirect_url?: string | null;
    notify_email?: string | null;
    project_id?: string;
  } = {};
  if (flags.name !== undefined) body.name = flags.name;
  const schema = await schemaFromFlags(flags.field, flags.schema);
  // The server checks the schema's shape and answers field by field; the CLI only carries it.
  if (schema) body.schema = schema as never[];
  if (flags.mode !== undefined) {
    if (!(SUBMISSION_MODES as readonly string[]).includes(flags.mode)) {
      throw usageError('invalid_mode', `--mode must be one of ${SUBMISSION_MODES.join(', ')}.`);
    }
    body.submission_mode = flags.mode as (typeof SUBMISSION_MODES)[number];
  }
  if (flags.origin?.length) body.allowed_origins = flags.origin;
  if (flags.redirectUrl !== undefined) body.redirect_url = flags.redirectUrl === false ? null : flags.redirectUrl;
  if (flags.notifyEmail !== undefined) body.notify_email = flags.notifyEmail === false ? null : flags.notifyEmail;
  if (flags.project !== undefined) body.project_id = flags.project;
  return body;
}

function printForm(ctx: CommandContext, form: Form): void {
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
      { header: 'LABEL', value: (f) => f.label ?? '' },
      { header: 'OPTIONS', value: (f) => f.options?.join(', ') ?? '' },
    ],
    form.schema,
  );
}

export async function create(ctx: CommandContext, flags: FormFlags & { idempotencyKey?: string }): Promise<void> {
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
    printForm(ctx, form);
    if (form.claim_token) {
      ctx.out.line();
      ctx.out.line(`claim token  ${ctx.out.style.bold(form.claim_token)}`);
      ctx.out.note(ctx.out.errorStyle.yellow(
        `This is the only time the claim token is shown. Claim the form with 'lfk forms claim ${form.id} --claim-token <token>'.`,
      ));
    }
  });
}

export async function list(ctx: CommandContext, flags: PageFlags): Promise<void> {
  const input = pageInput(flags);
  const api = await sessionApi(ctx);
  const workspaceId = await resolveWorkspace(ctx, api);
  const page = await api.forms.list.query({ workspace_id: workspaceId, ...input });
  ctx.out.result(page, (page) => {
    if (page.data.length === 0) return ctx.out.line(`No forms in ${workspaceId}. Create one with 'lfk forms create'.`);
    ctx.out.table(
      [
        { header: 'ID', value: (f) => f.id },
        { header: 'NAME', value: (f) => f.name },
        { header: 'MODE', value: (f) => f.submission_mode },
        { header: 'FIELDS', value: (f) => String(f.schema.length) },
        { header: 'NOTIFY', value: (f) => (f.notify_email ? `${f.notify_email}${f.notify_email_verified ? '' : ' (unverified)'}` : '') },
        { header: 'CREATED', value: (f) => f.created_at },
      ],
      page.data,
    );
    noteNextPage(ctx, page.next_cursor, 'lfk forms list');
  });
}

export async function get(ctx: CommandContext, formId: string): Promise<void> {
  const api = await formsApi(ctx);
  const form = await api.forms.get.query({ form_id: formId });
  ctx.out.result(form, (form) => printForm(ctx, form));
}

export async function update(ctx: CommandContext, formId: string, flags: FormFlags): Promise<void> {
  const body = await formBody(flags);
  if (Object.keys(body).length === 0) throw usageError('nothing_to_update', 'Say what to change: see lfk forms update --help.');
  const api = await formsApi(ctx);
  const form = await api.forms.update.mutate({ form_id: formId, ...body });
  ctx.out.result(form, (form) => {
    ctx.out.note(`Updated form ${form.id}.`);
    printForm(ctx, form);
  });
}

export async function resendVerification(ctx: CommandContext, formId: string): Promise<void> {
  const api = await formsApi(ctx);
  const sent = await api.forms.resendVerification.mutate({ form_id: formId });
  ctx.out.result(sent, (sent) => ctx.out.line(`Sent a new verification link to ${sent.sent_to}.`));
}

export async function claim(ctx: CommandContext, formId: string, flags: { claimToken: string }): Promise<void> {
  const api = await sessionApi(ctx);
  const workspaceId = await resolveWorkspace(ctx, api);
  const form = await api.forms.claim.mutate({ form_id: formId, claim_token: flags.claimToken, workspace_id: workspaceId });
  ctx.out.result(form, (form) => {
    ctx.out.note(`Claimed form ${form.id} into ${form.workspace_id}.`);
    printForm(ctx, form);
  });
}
