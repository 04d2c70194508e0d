// Text from the API (form names, labels, submission values, emails, key names, error messages)
// is written by whoever filled in a form: anyone on the internet. Printed raw, an escape sequence
// in it would drive the owner's terminal (clear the screen, set the title, fake a prompt) and a
// bidi override would reorder what they read. Human output shows every such character as a
// visible, harmless token instead; --json stays exact, since JSON escapes them itself.

/**
 * C0 controls but tab and newline, DEL, C1 controls (0x9b is a one-byte CSI on some terminals),
 * and the bidi embedding, override and isolate marks.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  // Caret notation for C0 and DEL, as `cat -v` and gh show them: ESC is ^[, BEL ^G, DEL ^?.
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** `text` with every control and bidi-override character shown as a visible token. */
export function inert(text: string): string {
  // A browser sends a textarea's line breaks as CRLF: a line break, not a carriage return that
  // could overwrite what came before it on the line.
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, visible);
}

/** A copy of an API value whose every string (keys of objects included) is inert. */
export function inertValue<T>(value: T): T {
  if (typeof value === 'string') return inert(value) as T;
  if (Array.isArray(value)) return value.map(inertValue) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [inert(key), inertValue(inner)])) as T;
  }
  return value;
}
