/**
 * What the filter reads of a submission: who says they sent it, its short answers (a name, a
 * subject) and its long ones (a message). Files, choices and numbers say little about spam and
 * are left out. Built from the form's own field types, so the filter needs no field names.
 */
export interface Message {
  /** The first email field's address, lowercased; null when the form has none or it was left empty. */
  sender: string | null;
  /** Single-line answers (text, url, tel fields). */
  short: string[];
  /** Multi-line answers (textarea fields). */
  long: string[];
}

/** The field types the filter reads, and how. */
export type FieldKind = 'sender' | 'short' | 'long';

const KIND_OF_TYPE: Readonly<Record<string, FieldKind>> = { email: 'sender', text: 'short', url: 'short', tel: 'short', textarea: 'long' };

/** A form's field, as far as the filter cares. */
export interface FieldShape {
  name: string;
  type: string;
}

/**
 * The message in a submission's values. Values are read by the form's fields only (never by
 * whatever names were sent), as their types say; anything that is not a string is skipped.
 */
export function messageOf(fields: readonly FieldShape[], values: Readonly<Record<string, unknown>>): Message {
  const message: Message = { sender: null, short: [], long: [] };
  for (const field of fields) {
    const kind = KIND_OF_TYPE[field.type];
    const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    if (kind === undefined || typeof value !== 'string' || value.trim() === '') continue;
    if (kind === 'sender') message.sender ??= value.trim().toLowerCase();
    else message[kind].push(value);
  }
  return message;
}
