import { FILE_NAME_MAX } from '@lfk/vocabulary';

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A sent file name as lfk keeps it, for display only: its last path segment (either slash), without
 * control or direction-override characters, trimmed of dots and spaces at the ends, at most
 * `FILE_NAME_MAX` characters (the extension kept when it is cut); `file` when nothing is left.
 */
export function cleanFileName(sent: string): string {
  const base = sent.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .toWellFormed()
    .replace(CONTROL, '')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (cleaned === '') return 'file';
  const chars = Array.from(cleaned);
  if (chars.length <= FILE_NAME_MAX) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 16 ? Array.from(cleaned.slice(dot)) : [];
  return [...chars.slice(0, FILE_NAME_MAX - extension.length), ...extension].join('');
}
