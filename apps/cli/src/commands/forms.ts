import { Command, Option, type OptionValues } from '@commander-js/extra-typings';
import type { RouterInputs, RouterOutputs } from '@lfk/client';
import { CAPTCHA_PROVIDERS, describeBytes, FIELD_TYPES, FILE_FIELD_LIMITS, SUBMISSION_MODES, UNKNOWN_FIELD_POLICIES } from '@lfk/vocabulary';
import { type CommandContext, formsApi, inWorkspace, requireSession, resolveWorkspace, sessionApi, withClient } from '../command-context.ts';
import { usageError } from '../errors.ts';
import { parseFieldShorthand, schemaFromFlags } from '../input/fields.ts';
import { canPrompt, confirmOrStop, readStdin } from '../terminal/prompts.ts';
import type { RecordEntry } from '../output/table.ts';
import { collect, commandGroup, examples } from './options.ts';
import { action, callAndShow } from './run-command.ts';
import { workspaceListCommand } from './workspace-list.ts';

/** As the help lists them: a select field is given with its options, a file field with what it takes. */
const FIELD_TYPES_HELP = FIELD_TYPES.map((type) => (type === 'select' ? 'select=a,b' : type === 'file' ? 'file[=application/pdf,image/*][:multiple][:max=5MiB]' : type)).join(' ');

/** The flags `forms create` and `forms update` share, one for each field of the form. */
const withFormOptions = <Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) =>
  command
    .option('--name <name>', "the form's name")
    .option('--field <name:type[:required]>', `a field; repeat for each (types: ${FIELD_TYPES_HELP})`, collect)
    .option('--schema <file|->', 'the fields as a JSON array, from a file or - for standard input')
    .addOption(new Option('--unknown-fields <policy>', 'what a submitted field the form does not name gets: refused, kept as text, or dropped').choices(UNKNOWN_FIELD_POLICIES))
    .addOption(new Option('--mode <mode>', 'who may submit').choices(SUBMISSION_MODES))
    .option('--origin <origin>', 'an origin allowed to submit from a browser; repeat for each', collect)
    .option('--redirect-url <url>', 'where a browser goes after submitting')
    .option('--error-redirect-url <url>', 'where a browser goes when the form refuses what it posted (with ?error=<code>&fields=<names>)')
    .option('--notify-email <address>', 'email each submission here (once the address is verified); repeat for up to 5', collect)
    .option('--project <project_id>', 'the project the form belongs to')
    .option('--honeypot <name>', 'a hidden field (e.g. _gotcha): a submission with a value in it is kept as spam')
    .addOption(new Option('--captcha <provider>', 'require a captcha of browser submissions').choices(CAPTCHA_PROVIDERS))
    .option('--captcha-site-key <key>', "the captcha's site key (public)")
    .option('--captcha-secret <secret|->', "the captcha's secret, or - to read it from standard input (stored encrypted, never shown)")
    .option('--closes-at <time>', 'close the form by itself at this time (ISO 8601)')
    .option('--max-submissions <n>', 'close the form once it holds this many submissions')
    .option('--closed-message <text>', 'what a person who tries to send the closed form reads')
    .option('--retention-days <n>', 'delete submissions older than this many days (1-3650); changing it later needs a session')
    .option('--auto-reply-field <field>', 'answer each submission by email, to the address in this email field')
    .option('--auto-reply-subject <text>', "the auto-reply's subject; {field} is replaced by that field's value")
    .option('--auto-reply-text <text|->', "the auto-reply's message, or - to read it from standard input; {field} is replaced by that field's value")
    .addOption(new Option('--auto-reply <state>', 'turn the auto-reply on or off, keeping its words').choices(['on', 'off'] as const));

type NoOptions = Record<never, never>;
type FormFlags = ReturnType<ReturnType<typeof withFormOptions<[], NoOptions, NoOptions>>['opts']>;

/** Flags that take a value, or `false` from update's `--no-…` to clear it. */
type Clearable = 'redirectUrl' | 'errorRedirectUrl' | 'notifyEmail' | 'honeypot' | 'captcha' | 'closesAt' | 'maxSubmissions' | 'closedMessage' | 'retentionDays' | 'autoReply';
type BodyFlags = Omit<FormFlags, Clearable> & { [K in Clearable]?: FormFlags[K] | false };

/** A whole number for a flag; the server judges its range. */
function wholeNumber(flag: string, value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw usageError('invalid_number', `${flag} must be a whole number.`);
  return Number(value);
}

/** `spam` as the flags set it: the honeypot, and the captcha (its secret from the flag, or standard input for `-`). */
async function spamBody(flags: BodyFlags) {
  const spam: NonNullable<RouterInputs['forms']['update']['spam']> = {};
  if (flags.honeypot !== undefined) spam.honeypot = flags.honeypot === false ? null : flags.honeypot;
  if (flags.captcha === false) {
    spam.captcha = null;
  } else if (flags.captcha !== undefined) {
    if (flags.captchaSiteKey === undefined) throw usageError('missing_site_key', '--captcha needs --captcha-site-key <key>.');
    const secret = flags.captchaSecret === '-' ? (await readStdin('the captcha secret')).trim() : flags.captchaSecret;
    spam.captcha = { provider: flags.captcha, site_key: flags.captchaSiteKey, ...(secret !== undefined ? { secret } : {}) };
  } else if (flags.captchaSiteKey !== undefined || flags.captchaSecret !== undefined) {
    throw usageError('missing_provider', '--captcha-site-key and --captcha-secret go with --captcha <provider>.');
  }
  return Object.keys(spam).length > 0 ? spam : undefined;
}

/** `auto_reply` as the flags set it (the server keeps what they leave out); null for `--no-auto-reply`. */
async function autoReplyBody(flags: BodyFlags): Promise<RouterInputs['forms']['update']['auto_reply']> {
  if (flags.autoReply === false) return null;
  const text = flags.autoReplyText === '-' ? await readStdin("the auto-reply's text") : flags.autoReplyText;
  const autoReply = {
    ...(flags.autoReply !== undefined ? { enabled: flags.autoReply === 'on' } : {}),
    ...(flags.autoReplyField !== undefined ? { email_field: flags.autoReplyField } : {}),
    ...(flags.autoReplySubject !== undefined ? { subject: flags.autoReplySubject } : {}),
    ...(text !== undefined ? { text } : {}),
  };
  return Object.keys(autoReply).length > 0 ? autoReply : undefined;
}

/** The body fields the flags set, in the API's names; `false` (update's `--no-…`) clears a value. */
async function formBody(flags: BodyFlags) {
  const body: Omit<RouterInputs['forms']['update'], 'form_id'> = {};
  if (flags.name !== undefined) body.name = flags.name;
  const schema = await schemaFromFlags(flags.field, flags.schema);
  // The server checks the schema's shape and answers field by field; the CLI only carries it.
  if (schema) body.schema = schema as NonNullable<typeof body.schema>;
  if (flags.unknownFields !== undefined) body.unknown_fields = flags.unknownFields;
  if (flags.mode !== undefined) body.submission_mode = flags.mode;
  if (flags.origin?.length) body.allowed_origins = flags.origin;
  if (flags.redirectUrl !== undefined) body.redirect_url = flags.redirectUrl === false ? null : flags.redirectUrl;
  if (flags.errorRedirectUrl !== undefined) body.error_redirect_url = flags.errorRedirectUrl === false ? null : flags.errorRedirectUrl;
  if (flags.notifyEmail !== undefined) body.notify_emails = flags.notifyEmail === false ? [] : flags.notifyEmail;
  if (flags.project !== undefined) body.project_id = flags.project;
  const spam = await spamBody(flags);
  if (spam) body.spam = spam;
  if (flags.closesAt !== undefined) body.closes_at = flags.closesAt === false ? null : flags.closesAt;
  if (flags.maxSubmissions !== undefined) body.max_submissions = flags.maxSubmissions === false ? null : wholeNumber('--max-submissions', flags.maxSubmissions);
  if (flags.closedMessage !== undefined) body.closed_message = flags.closedMessage === false ? null : flags.closedMessage;
  const autoReply = await autoReplyBody(flags);
  if (autoReply !== undefined) body.auto_reply = autoReply;
  return body;
}

/** `--retention-days` (or `--no-retention-days`): undefined when not given. */
const retentionOf = (flags: Pick<BodyFlags, 'retentionDays'>) =>
  flags.retentionDays === undefined ? undefined : flags.retentionDays === false ? null : wholeNumber('--retention-days', flags.retentionDays);



type Form = RouterOutputs['forms']['get'];

type Snippets = Pick<typeof import('@lfk/client'), 'submissionUrl' | 'htmlFormSnippet' | 'curlSubmissionSnippet'>;

/** Where submissions go, and what to paste to send them: the HTML form for a site, or the call with a key. */
function printHowToSubmit(form: Form, ctx: CommandContext, { submissionUrl, htmlFormSnippet, curlSubmissionSnippet }: Snippets): void {
  const base = ctx.settings.baseUrl;
  ctx.out.line();
  ctx.out.line(`Submissions: POST ${submissionUrl(form, base)}`);
  if (form.submission_mode === 'api_key') {
    ctx.out.line('From your server, with a key of the workspace in LFK_API_KEY:');
    ctx.out.line();
    ctx.out.line(curlSubmissionSnippet(form, base));
    return;
  }
  ctx.out.line(
    form.allowed_origins.length > 0
      ? `Paste this into a page of ${form.allowed_origins.join(', ')}:`
      : "Paste this into a page of your site, once its origin is allowed (lfk forms update --add-origin https://…):",
  );
  ctx.out.line();
  ctx.out.line(htmlFormSnippet(form, base));
}

/** A file field's rules in a few words: the types it takes, the most one file weighs, how many. */
function fileRules(field: Form['schema'][number]): string {
  const files = field.multiple ? `up to ${field.max_files ?? FILE_FIELD_LIMITS.defaultMaxFiles} files` : 'one file';
  const size = `max ${describeBytes(field.max_size ?? FILE_FIELD_LIMITS.defaultMaxSize)}`;
  return [field.accept?.length ? field.accept.join(', ') : 'any type', size, files].join('; ');
}

const UNKNOWN_FIELDS_SHOWN = {
  reject: 'reject (a submission naming a field the form does not have is refused)',
  keep: 'keep (stored as text after the form\'s own fields)',
  ignore: 'ignore (dropped)',
} as const;

/** A form's settings, then its fields as a table. */
function printForm(form: Form, ctx: CommandContext): void {
  const { style } = ctx.out;
  const verified = new Set(form.verified_notify_emails);
  const waiting = form.notify_emails.length > verified.size;
  const listed = form.notify_emails.map((address) => `${address} (${verified.has(address) ? 'verified' : 'not verified'})`).join(', ');
  // While none is verified, the addresses verified before the change keep the emails.
  const meanwhile = verified.size > 0 ? '' : form.notified_addresses.length > 0 ? `; submissions still go to ${form.notified_addresses.join(', ')} until one is` : '; no submission is emailed until one is';
  const notify: RecordEntry =
    form.notify_emails.length === 0 ? ['notify emails', 'none'] : ['notify emails', `${listed}${meanwhile}`, waiting ? style.yellow : style.green];
  ctx.out.record([
    ['id', form.id],
    ['name', form.name],
    ['state', form.state],
    ['workspace', form.workspace_id ?? '-'],
    ['project', form.project_id ?? '-'],
    ['submission mode', form.submission_mode],
    ['unknown fields', UNKNOWN_FIELDS_SHOWN[form.unknown_fields]],
    ['allowed origins', form.allowed_origins.join(', ') || 'none'],
    ...(form.refused_origins.length > 0
      ? [['refused lately', form.refused_origins.map((r) => `${r.origin} (${r.last_refused_at})`).join(', '), style.yellow] as RecordEntry]
      : []),
    notify,
    ['redirect url', form.redirect_url ?? 'none'],
    ['error redirect url', form.error_redirect_url ?? "none (lfk's page)"],
    form.closed ? ['closed', 'yes: submissions are refused', style.yellow] : ['closed', 'no'],
    ['closes at', form.closes_at ?? 'never'],
    ['max submissions', form.max_submissions === null ? 'no limit' : String(form.max_submissions)],
    ...(form.closed_message ? [['closed message', form.closed_message] as RecordEntry] : []),
    ['honeypot', form.spam.honeypot ?? 'none'],
    ['captcha', form.spam.captcha ? `${form.spam.captcha.provider} (site key ${form.spam.captcha.site_key})` : 'none'],
    ['retention', form.retention_days === null ? 'kept until deleted' : `${form.retention_days} days`],
    [
      'auto-reply',
      form.auto_reply
        ? `${form.auto_reply.enabled ? 'on' : 'off'}: to the address in "${form.auto_reply.email_field}", subject "${form.auto_reply.subject}"`
        : 'none',
    ],
    ...(form.auto_replies_skipped > 0
      ? [['auto-replies skipped', `${form.auto_replies_skipped} (the address stopped them, or a limit was reached)`, style.yellow] as RecordEntry]
      : []),
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
      { header: 'OPTIONS', value: (f) => (f.type === 'file' ? fileRules(f) : (f.options?.join(', ') ?? '')), shrink: true },
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
        const retention = retentionOf(flags);
        const form = await api.forms.create.mutate(
          {
            ...body,
            name: body.name,
            schema: body.schema,
            ...(retention !== undefined ? { retention_days: retention } : {}),
            ...(workspaceId ? { workspace_id: workspaceId } : {}),
          },
          { context: { idempotencyKey } },
        );
        // Loaded only when printed for a person: the client's module is not on every command's start.
        const snippets = ctx.out.json ? null : await import('@lfk/client');
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
          if (snippets) printHowToSubmit(form, ctx, snippets);
        });
      }),
    );

const formsListCommand = () =>
  workspaceListCommand("The workspace's forms, newest first (needs a session)", (api) => api.forms.list, [
    { header: 'ID', value: (f) => f.id },
    { header: 'NAME', value: (f) => f.name, shrink: true },
    { header: 'MODE', value: (f) => f.submission_mode, optional: true },
    { header: 'FIELDS', value: (f) => String(f.schema.length), optional: true },
    { header: 'SUBMISSIONS', value: (f) => String(f.submission_count) },
    { header: 'LAST', value: (f) => f.last_submission_at ?? '', time: true, optional: true },
    {
      header: 'NOTIFY',
      value: (f) => f.notify_emails.map((address) => `${address}${f.verified_notify_emails.includes(address) ? '' : ' (unverified)'}`).join(', '),
      shrink: true,
      optional: true,
    },
    { header: 'CREATED', value: (f) => f.created_at, time: true, optional: true },
  ], (workspaceId) => `No forms in ${workspaceId}. Create one with 'lfk forms create'.`);

/** One previewed email, as a mail program would show its headers and text. */
function printPreview(title: string, email: RouterOutputs['submissions']['emailPreviews']['notification'], ctx: CommandContext): void {
  ctx.out.line(ctx.out.style.bold(title));
  if (!email) {
    ctx.out.line(title === 'Notification' ? '(none: the form has no notification address)' : '(none: the form has no auto-reply)');
    return;
  }
  ctx.out.line(`To: ${email.to}`);
  if (email.reply_to) ctx.out.line(`Reply-To: ${email.reply_to}`);
  ctx.out.line(`Subject: ${email.subject}`);
  if (email.list_unsubscribe) ctx.out.line(`List-Unsubscribe: <${email.list_unsubscribe}>`);
  ctx.out.line();
  ctx.out.line(email.text);
}

const formsPreviewEmailsCommand = () =>
  new Command('preview-emails')
    .description('Show what a submission of sample values would send now: the notification and the auto-reply')
    .argument('<form_id>', 'the form')
    .action(
      callAndShow(
        withClient(formsApi),
        ({ api }, formId) => api.submissions.emailPreviews.query({ form_id: formId }),
        (previews, ctx) => {
          printPreview('Notification', previews.notification, ctx);
          ctx.out.line();
          printPreview('Auto-reply', previews.auto_reply, ctx);
        },
      ),
    );

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
    .option('--no-error-redirect-url', "show lfk's page when the form refuses a post")
    .option('--no-notify-email', 'stop emailing submissions')
    .option('--no-honeypot', 'remove the honeypot field')
    .option('--no-captcha', 'stop requiring a captcha')
    .option('--no-closes-at', 'never close the form by time')
    .option('--no-max-submissions', 'take any number of submissions')
    .option('--no-closed-message', 'say the default when the form is closed')
    .option('--no-retention-days', 'keep submissions until deleted')
    .option('--no-auto-reply', 'remove the auto-reply')
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
        const retention = retentionOf(flags);
        // Retention is a person's to change (a shorter one deletes submissions): refused before anything else is changed.
        if (retention !== undefined) requireSession(ctx.settings);
        const additions = (flags.addField ?? []).map(parseFieldShorthand);
        if (Object.keys(body).length === 0 && retention === undefined && !hasEdits(fieldEdits) && !hasEdits(originEdits)) {
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
        let form = Object.keys(body).length > 0 || retention === undefined ? await (await formsApi(ctx)).forms.update.mutate({ form_id: formId, ...body }) : null;
        // Retention is a member's session's to change (a shorter one deletes submissions): asked with the session.
        if (retention !== undefined) form = await (await sessionApi(ctx)).forms.setRetention.mutate({ form_id: formId, retention_days: retention });
        if (!form) return;
        ctx.out.result(form, (form) => {
          ctx.out.note(`Updated form ${form.id}.`);
          printForm(form, ctx);
        });
      }),
    );

const formsResendVerificationCommand = () =>
  new Command('resend-verification')
    .description("Send a new verification link to each of the form's notify emails not verified yet")
    .argument('<form_id>', 'the form')
    .action(
      callAndShow(
        withClient(formsApi),
        ({ api }, formId) => api.forms.resendVerification.mutate({ form_id: formId }),
        (sent, { out }) => out.line(`Sent a new verification link to ${sent.sent_to_all.join(', ')}.`),
      ),
    );

/** `lfk forms close|reopen`: the form's `closed`, by a key or a session. */
const openCloseCommand = (name: 'close' | 'reopen') =>
  new Command(name)
    .description(name === 'close' ? 'Close a form: submissions are refused until it is reopened' : 'Reopen a closed form (a closing time already past is cleared)')
    .argument('<form_id>', 'the form')
    .option('--message <text>', 'what a person who tries to send it reads (close only)')
    .action(
      action(async (ctx, formId, flags) => {
        if (name === 'reopen' && flags.message !== undefined) throw usageError('conflicting_flags', '--message goes with close: a reopened form shows no message.');
        const api = await formsApi(ctx);
        let body: Omit<RouterInputs['forms']['update'], 'form_id'> = { closed: name === 'close' };
        if (flags.message !== undefined) body.closed_message = flags.message;
        if (name === 'reopen') {
          // A closing time already past would keep the form closed: reopening means open now.
          const current = await api.forms.get.query({ form_id: formId });
          if (current.closes_at && Date.parse(current.closes_at) <= Date.now()) body = { ...body, closes_at: null };
        }
        const form = await api.forms.update.mutate({ form_id: formId, ...body });
        ctx.out.result(form, (form) => {
          ctx.out.line(`${name === 'close' ? 'Closed' : 'Reopened'} form ${form.id}.`);
          if (name === 'reopen' && form.max_submissions !== null) {
            ctx.out.note(`It still takes at most ${form.max_submissions} submissions ('lfk forms update ${form.id} --no-max-submissions' lifts that).`);
          }
        });
      }),
    );

const formsDeleteCommand = () =>
  new Command('delete')
    .description("Delete a form with everything it holds: submissions, their emails, webhooks (an owner's session)")
    .argument('<form_id>', 'the form')
    .option('-y, --yes', 'delete without asking')
    .action(
      action(async (ctx, formId, flags) => {
        if (!flags.yes) {
          const form = await (await sessionApi(ctx)).forms.get.query({ form_id: formId });
          await confirmOrStop(
            `Delete the form "${form.name}" (${form.id}) and every submission it holds? This cannot be undone.`,
            '--yes to delete without asking',
            'Nothing was deleted.',
          );
        }
        // A client of its own after the question, so time spent answering is not spent from the timeout.
        await (await sessionApi(ctx)).forms.delete.mutate({ form_id: formId });
        ctx.out.result({ id: formId, deleted: true }, () => ctx.out.line(`Deleted form ${formId}.`));
      }),
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
    [
      formsCreateCommand(),
      formsListCommand(),
      formsGetCommand(),
      formsUpdateCommand(),
      openCloseCommand('close'),
      openCloseCommand('reopen'),
      formsDeleteCommand(),
      formsResendVerificationCommand(),
      formsPreviewEmailsCommand(),
      formsClaimCommand(),
    ],
    [
      'lfk forms create --name Contact --field email:email:required --field message:textarea --origin https://example.com',
      'lfk forms create --name Signup --schema schema.json --mode api_key',
      'lfk forms create --name Plans --field plan:select=free,pro:required',
      'lfk forms update form_… --notify-email team@example.com',
      'lfk forms update form_… --honeypot _gotcha --retention-days 90',
      'lfk forms update form_… --unknown-fields keep --auto-reply-field email --auto-reply-subject "Thanks, {name}" --auto-reply-text "We got your message."',
      'echo "$TURNSTILE_SECRET" | lfk forms update form_… --captcha turnstile --captcha-site-key 0x4AAA… --captcha-secret -',
      'lfk forms close form_… --message "Registrations are closed."',
      'lfk forms delete form_… --yes',
      'lfk forms get form_… --json',
      'lfk forms claim form_… --claim-token lfc_…',
    ],
  );
