import type { AutoReply, StoredField } from '@lfk/db';
import { invalidField } from '../../errors.ts';
import { AUTO_REPLY_LIMITS, placeholdersOf } from '@lfk/vocabulary';
import type { AutoReplyInput } from './schemas.ts';

/**
 * The auto-reply a create or update asks for, merged with the one the form has: null removes it,
 * undefined leaves it; what is left out stays. A new one is enabled unless it says otherwise, and
 * must name its email field, subject and text. `setBy`: the account it counts against from now on.
 */
export function mergedAutoReply(current: AutoReply | null, input: AutoReplyInput | null | undefined, setBy: string | null): AutoReply | null {
  if (input === undefined) return current;
  if (input === null) return null;
  const merged = { ...current, ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) };
  for (const key of ['email_field', 'subject', 'text'] as const) {
    if (merged[key] === undefined) throw invalidField(`auto_reply.${key}`, 'Required to set an auto-reply.');
  }
  return {
    enabled: merged.enabled ?? true,
    email_field: merged.email_field!,
    subject: merged.subject!,
    text: merged.text!,
    ...(setBy ? { set_by: setBy } : current?.set_by ? { set_by: current.set_by } : {}),
  };
}

/**
 * What a form's fields must allow of its auto-reply: its address comes from one of its email
 * fields, and each placeholder names one of its fields, at most `AUTO_REPLY_LIMITS.placeholders`.
 */
export function assertAutoReplyFits(autoReply: AutoReply | null, schema: readonly StoredField[]): void {
  if (!autoReply) return;
  const byName = new Map(schema.map((field) => [field.name, field]));
  if (byName.get(autoReply.email_field)?.type !== 'email') {
    throw invalidField('auto_reply.email_field', 'Must name one of the form’s email fields: the auto-reply goes to the address given there.');
  }
  const subject = placeholdersOf(autoReply.subject);
  const text = placeholdersOf(autoReply.text);
  if (subject.length + text.length > AUTO_REPLY_LIMITS.placeholders) {
    throw invalidField('auto_reply.text', `At most ${AUTO_REPLY_LIMITS.placeholders} placeholders in the subject and the text together.`);
  }
  for (const [path, names] of [
    ['subject', subject],
    ['text', text],
  ] as const) {
    const unknown = names.find((name) => !byName.has(name));
    if (unknown) throw invalidField(`auto_reply.${path}`, `{${unknown}} names no field of the form.`);
  }
}
