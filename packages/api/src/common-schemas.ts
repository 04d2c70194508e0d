import { PAGE_LIMIT, ROLES, TEXT_LIMITS } from '@lfk/vocabulary';
import { z } from 'zod';

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * True when the text holds a C0 or C1 control character, DEL, or a Unicode line or paragraph
 * separator: none belongs in a one-line value (a CR/LF in a name ends up in an email header).
 */
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTER.test(value);
}

export const NO_CONTROL_CHARACTERS = 'Must not contain control characters or line breaks.';

/**
 * One line a person typed: well-formed unicode (a lone surrogate cannot be stored faithfully) with
 * no control characters or line breaks, checked before trimming so that none is silently dropped;
 * then trimmed, 1..max characters.
 */
export function text(max: number) {
  return z
    .string()
    .refine((value) => value.isWellFormed(), 'Must not contain unpaired surrogates.')
    .refine((value) => !hasControlCharacters(value), NO_CONTROL_CHARACTERS)
    .trim()
    .min(1, 'Must not be empty.')
    .max(max, `Must be at most ${max} characters.`);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;

/** Paragraphs a person typed: as `text`, but tabs and line breaks are taken (and kept inside it). */
export function multilineText(max: number) {
  return z
    .string()
    .refine((value) => value.isWellFormed(), 'Must not contain unpaired surrogates.')
    .refine((value) => !CONTROL_BUT_LINE_BREAKS.test(value), 'Must not contain control characters other than tab and line breaks.')
    .trim()
    .min(1, 'Must not be empty.')
    .max(max, `Must be at most ${max} characters.`);
}

/** A path or body id. Its shape is checked where it is looked up: a wrong shape is "not found". */
export const idParam = z.string();

/** Every workspace-scoped procedure names its workspace; the auth middleware reads this field. */
export const workspaceScoped = z.object({ workspace_id: idParam });

export const timestamp = z.iso.datetime();

/**
 * A time a caller sends (`since`, `before`, `closes_at`): ISO 8601 with an offset, from the year 1
 * on, the first the database stores (`0000-…` is a valid ISO string but no date either engine takes).
 */
export const timeInput = z.iso.datetime({ offset: true }).refine((value) => Number(value.slice(0, 4)) >= 1, 'Must be a time from the year 1 on.');

export const email = z
  .string()
  .refine((value) => !hasControlCharacters(value), NO_CONTROL_CHARACTERS)
  .trim()
  .max(TEXT_LIMITS.email)
  .pipe(z.email('Must be an email address.'))
  .transform((value) => value.toLowerCase());

/**
 * A whole number from JSON, or from a query string, which carries text: a plain decimal is read as
 * a number (no hex, no exponents). Typed as what it accepts, so typed clients may send either.
 */
export function queryInteger(min: number, max: number): z.ZodType<number, number | string> {
  const integer = z.preprocess((v) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v), z.number().int().min(min).max(max));
  return integer as unknown as z.ZodType<number, number | string>;
}

export const listInput = z.object({
  limit: queryInteger(1, PAGE_LIMIT.max)
    .default(PAGE_LIMIT.default)
    .describe(`How many items a page holds: 1 to ${PAGE_LIMIT.max} (${PAGE_LIMIT.default} when not given).`),
  cursor: z.string().max(100).optional().describe("The previous page's `next_cursor`: the page after it."),
});
export type ListInput = z.infer<typeof listInput>;

/** A page of a list; named after its item (`KeyList`) when the item is named, or as told, for generated clients. */
export function listOf<T extends z.ZodType>(item: T, id?: string) {
  const list = z.object({
    data: z.array(item),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
  });
  const itemId = id ?? (z.globalRegistry.get(item)?.id === undefined ? undefined : `${z.globalRegistry.get(item)?.id}List`);
  return itemId ? list.meta({ id: itemId }) : list;
}

/** One value of a submission: what a field holds (webhook events carry them too, so this is shared). */
export const submissionValue = z.union([z.string(), z.number(), z.boolean()]);
/** A submission's values as a REST body or form post carries them: a flat object. */
export const submissionValues = z.record(z.string(), submissionValue);
/** A submission's values as stored and answered: a file field's value is the list of its files' ids. */
export const storedSubmissionValues = z.record(z.string(), z.union([submissionValue, z.array(z.string())]));

export const role = z.enum(ROLES).meta({ id: 'Role' });
