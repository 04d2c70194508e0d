import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import type { RouterInputs } from '@lfk/client';
import { CAPTCHA_PROVIDERS, FIELD_TYPES, SUBMISSION_MODES, UNKNOWN_FIELD_POLICIES } from '@lfk/vocabulary';
import { usageError } from '../../errors.ts';
import { schemaFromFlags } from '../../input/fields.ts';
import { readStdin } from '../../terminal/prompts.ts';
import { collect } from '../options.ts';

// How `forms create` and `forms update` read their flags into the API's body.

/** As the help lists them: a select field is given with its options, a file field with what it takes. */
const FIELD_TYPES_HELP = FIELD_TYPES.map((type) =>
  type === 'select' ? 'select=a,b' : type === 'file' ? 'file[=application/pdf,image/*][:multiple][:max=5MiB]' : type,
).join(' ');

/** The flags `forms create` and `forms update` share, one for each field of the form. */
export const withFormOptions = <Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(command: Command<Args, Opts, Globals>) =>
  command
    .option('--name <name>', "the form's name")
    .option('--field <name:type[:required]>', `a field; repeat for each (types: ${FIELD_TYPES_HELP})`, collect)
    .option('--schema <file|->', 'the fields as a JSON array, from a file or - for standard input')
    .addOption(
      new Option('--unknown-fields <policy>', 'what a submitted field the form does not name gets: refused, kept as text, or dropped').choices(
        UNKNOWN_FIELD_POLICIES,
      ),
    )
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
    .addOption(new Option('--auto-reply <state>', 'turn the auto-reply on or off, keeping its words').choices(['on', 'off'] as const))
    .option('--drafts <days|off>', "keep a visitor's answers as a draft on the form's page, this many days after the last save (1-30); off stops it")
    .addOption(
      new Option('--draft-email-link <state>', 'let the page email a visitor a link to finish their draft later (on or off)').choices(['on', 'off'] as const),
    )
    .addOption(
      new Option('--spam-filter <state>', 'read each submission and send what scores above the threshold to spam (on by default)').choices([
        'on',
        'off',
      ] as const),
    )
    .option('--spam-threshold <score|default>', "the content filter's threshold, 0.01-0.99 (lower catches more); default: the shipped one");

type NoOptions = Record<never, never>;
type FormFlags = ReturnType<ReturnType<typeof withFormOptions<[], NoOptions, NoOptions>>['opts']>;

/** Flags that take a value, or `false` from update's `--no-…` to clear it. */
type Clearable =
  | 'redirectUrl'
  | 'errorRedirectUrl'
  | 'notifyEmail'
  | 'honeypot'
  | 'captcha'
  | 'closesAt'
  | 'maxSubmissions'
  | 'closedMessage'
  | 'retentionDays'
  | 'autoReply';
export type BodyFlags = Omit<FormFlags, Clearable> & { [K in Clearable]?: FormFlags[K] | false };

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
export async function formBody(flags: BodyFlags) {
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
  if (flags.drafts !== undefined || flags.draftEmailLink !== undefined) {
    body.drafts = {
      ...(flags.drafts !== undefined ? draftsBody(flags.drafts) : {}),
      ...(flags.draftEmailLink !== undefined ? { email_link: flags.draftEmailLink === 'on' } : {}),
    };
  }
  if (flags.spamFilter !== undefined || flags.spamThreshold !== undefined) {
    body.spam_filter = {
      ...(flags.spamFilter !== undefined ? { enabled: flags.spamFilter === 'on' } : {}),
      ...(flags.spamThreshold !== undefined ? { threshold: thresholdOf(flags.spamThreshold) } : {}),
    };
  }
  return body;
}

/** `--spam-threshold 0.7`; `default` goes back to the shipped model's. The server judges the range. */
function thresholdOf(value: string): number | null {
  if (value === 'default') return null;
  if (!/^(0(\.\d{1,4})?|1(\.0{1,4})?|\.\d{1,4})$/.test(value))
    throw usageError('invalid_number', '--spam-threshold must be a number from 0.01 to 0.99, or default.');
  return Number(value);
}

/** `--drafts 7` keeps drafts seven days; `--drafts off` turns them off. */
function draftsBody(value: string): NonNullable<RouterInputs['forms']['update']['drafts']> {
  if (value === 'off') return { enabled: false };
  return { enabled: true, ttl_days: wholeNumber('--drafts', value) };
}

/** `--retention-days` (or `--no-retention-days`): undefined when not given. */
export const retentionOf = (flags: Pick<BodyFlags, 'retentionDays'>) =>
  flags.retentionDays === undefined ? undefined : flags.retentionDays === false ? null : wholeNumber('--retention-days', flags.retentionDays);
