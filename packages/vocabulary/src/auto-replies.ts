/** The limits of a form's auto-reply template. */
export const AUTO_REPLY_LIMITS = {
  subject: 200,
  text: 5_000,
  /** Placeholders in the subject and the text together. */
  placeholders: 50,
  /** The most characters of one value an auto-reply repeats: it answers a person, it does not carry their message to others. */
  valueShown: 200,
} as const;

/**
 * Why an auto-reply was not sent: the address asked for no more from the workspace, it had as many
 * as lfk sends one address in a while, or the form, its workspace or the account that set it had
 * as many as it may send in a while.
 */
export const AUTO_REPLY_SKIP_REASONS = ['stopped', 'recipient_limit', 'form_limit', 'workspace_limit', 'account_limit'] as const;
export type AutoReplySkipReason = (typeof AUTO_REPLY_SKIP_REASONS)[number];

/** `{field}`: a field's name, as a form's fields are named. */
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_-]{0,63})\}/g;

/** The field names a template's placeholders name, in order, repeats included. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/**
 * A template with each `{field}` replaced by `shown(field)`; braces around anything else stay as
 * written. Escaping is the caller's: `shown` answers the value as the output needs it.
 */
export function fillTemplate(template: string, shown: (field: string) => string): string {
  return template.replace(PLACEHOLDER, (_whole, field: string) => shown(field));
}

/**
 * A submitted value as an auto-reply repeats it: as text, at most `AUTO_REPLY_LIMITS.valueShown`
 * characters; a file field's (a list of its files' names) as the names.
 */
export function shownValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'boolean' ? (value ? 'yes' : 'no') : Array.isArray(value) ? value.join(', ') : String(value);
  const characters = [...text];
  return characters.length <= AUTO_REPLY_LIMITS.valueShown ? text : `${characters.slice(0, AUTO_REPLY_LIMITS.valueShown - 1).join('')}…`;
}
