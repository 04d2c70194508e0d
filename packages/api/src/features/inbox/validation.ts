import type { StoredField } from '@lfk/db';
import { FIELD_MAX_LENGTH, type UnknownFieldPolicy } from '@lfk/vocabulary';
import { z } from 'zod';
import type { ErrorDetail } from '../../errors.ts';
import { hasControlCharacters, NO_CONTROL_CHARACTERS } from '../../common-schemas.ts';

export type SubmissionValue = string | number | boolean;
/** A value as stored: a file field's is the list of its files' ids. */
export type StoredValue = SubmissionValue | string[];
export type Validated =
  | { ok: true; values: Record<string, SubmissionValue> }
  /** `aboutFiles`: some detail is about a file field (answered `invalid_submission`, else `validation_failed`). */
  | { ok: false; details: ErrorDetail[]; aboutFiles: boolean };

/** A field the form does not name, kept (`unknown_fields: keep`): taken as a textarea's text, under a name of at most 100 characters. */
const KEPT_FIELD: StoredField = { name: '', type: 'textarea', required: false };
const KEPT_NAME_MAX = 100;
/** The most fields a form does not name one submission may bring to be kept: as many as a form may have. */
const KEPT_FIELDS_MAX = 100;
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TEL = /^[0-9+(). -]{3,32}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TRUE_WORDS = new Set(['on', 'true', '1', 'yes']);
const FALSE_WORDS = new Set(['off', 'false', '0', 'no']);
const emailShape = z.email();

type Check = { value: SubmissionValue } | { error: string };

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Whether a string value may be stored for its field: well-formed unicode; one line (no control
 * character or line break) for every single-line type; a textarea also takes tab, CR and LF.
 */
export function textProblem(field: Pick<StoredField, 'type'>, value: string): string | null {
  if (!value.isWellFormed()) return 'Must not contain unpaired surrogates.';
  if (field.type === 'textarea') {
    return CONTROL_BUT_LAYOUT.test(value) ? 'Must not contain control characters other than tab and line breaks.' : null;
  }
  return hasControlCharacters(value) ? NO_CONTROL_CHARACTERS : null;
}

function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** One present (non-blank) value against its field. */
function checkValue(field: StoredField, value: unknown): Check {
  if (field.type === 'checkbox') {
    if (typeof value === 'boolean') return { value };
    const word = typeof value === 'string' ? value.trim().toLowerCase() : null;
    if (word !== null && TRUE_WORDS.has(word)) return { value: true };
    if (word !== null && FALSE_WORDS.has(word)) return { value: false };
    return { error: 'Must be true or false.' };
  }
  if (field.type === 'number') {
    if (typeof value === 'number') return Number.isFinite(value) ? { value } : { error: 'Must be a finite number.' };
    if (typeof value === 'string' && value.trim().length <= 100 && NUMBER_TEXT.test(value.trim())) {
      const parsed = Number(value.trim());
      if (Number.isFinite(parsed)) return { value: parsed };
    }
    return { error: 'Must be a number.' };
  }
  if (typeof value !== 'string') return { error: 'Must be a string.' };
  const trimmed = value.trim();
  switch (field.type) {
    case 'email':
      return trimmed.length <= FIELD_MAX_LENGTH.email && emailShape.safeParse(trimmed).success ? { value: trimmed } : { error: 'Must be an email address.' };
    case 'url':
      return trimmed.length <= FIELD_MAX_LENGTH.url && isHttpUrl(trimmed) ? { value: trimmed } : { error: 'Must be an http or https URL.' };
    case 'tel':
      return TEL.test(trimmed) && (trimmed.match(/\d/g)?.length ?? 0) >= 3 ? { value: trimmed } : { error: 'Must be a telephone number.' };
    case 'date':
      return isCalendarDate(trimmed) ? { value: trimmed } : { error: 'Must be a date as YYYY-MM-DD.' };
    case 'select':
      return field.options?.includes(value) ? { value } : { error: 'Must be one of the options.' };
    default: {
      const max = field.type === 'textarea' ? FIELD_MAX_LENGTH.textarea : FIELD_MAX_LENGTH.text;
      return value.length <= max ? { value } : { error: `Must be at most ${max} characters.` };
    }
  }
}

/**
 * Checks a submission against the form's fields: one detail per bad field. Valid values are
 * returned as they will be stored: text exactly as sent, numbers as numbers, checkboxes as
 * booleans (an unticked one as false), blank optional fields left out. A file field takes files
 * only (`fileCounts`: how many the body carried in each field, each already checked as it arrived);
 * its value, the files' ids, is the caller's to add. A field the form does not name is refused,
 * kept as text after the form's own, or dropped, as the form's `unknownFields` says.
 */
export function validateSubmission(
  form: { schema: StoredField[]; unknownFields: UnknownFieldPolicy },
  data: Record<string, unknown>,
  fileCounts: ReadonlyMap<string, number> = new Map(),
): Validated {
  const details: ErrorDetail[] = [];
  let aboutFiles = false;
  const values = new Map<string, SubmissionValue>();
  const known = new Set(form.schema.map((f) => f.name));
  for (const field of form.schema) {
    const raw = Object.hasOwn(data, field.name) ? data[field.name] : undefined;
    if (field.type === 'file') {
      const problem = !isBlank(raw)
        ? 'Must be a file, sent in a multipart/form-data request.'
        : field.required && (fileCounts.get(field.name) ?? 0) === 0
          ? 'Is required.'
          : null;
      if (problem) {
        details.push({ path: field.name, message: problem });
        aboutFiles = true;
      }
      continue;
    }
    const checked = checkField(field, raw);
    if (checked === null) continue;
    if ('error' in checked) details.push({ path: field.name, message: checked.error });
    else values.set(field.name, checked.value);
  }
  if (form.unknownFields !== 'ignore') {
    const unknown = Object.keys(data).filter((name) => !known.has(name));
    if (form.unknownFields === 'reject') {
      for (const name of unknown) details.push({ path: name.slice(0, KEPT_NAME_MAX), message: 'Unknown field.' });
    } else if (unknown.length > KEPT_FIELDS_MAX) {
      details.push({ path: '', message: `At most ${KEPT_FIELDS_MAX} fields the form does not name are kept; this submission has ${unknown.length}.` });
    } else {
      for (const name of unknown) {
        const problem = keptNameProblem(name);
        const checked = problem ? { error: problem } : checkField(KEPT_FIELD, keptText(data[name]));
        if (checked === null) continue;
        if ('error' in checked) details.push({ path: name.slice(0, KEPT_NAME_MAX), message: checked.error });
        else values.set(name, checked.value);
      }
    }
  }
  return details.length > 0 ? { ok: false, details, aboutFiles } : { ok: true, values: Object.fromEntries(values) };
}

/** Why a name the form does not name cannot be kept under it, or null. */
function keptNameProblem(name: string): string | null {
  if (name.length > KEPT_NAME_MAX) return `Not a field of this form; to be kept, its name must be at most ${KEPT_NAME_MAX} characters.`;
  if (!name.isWellFormed() || hasControlCharacters(name)) return 'Not a field of this form; to be kept, its name must not contain control characters.';
  return null;
}

/** A kept field's value as the text it is stored as; an array or object stays as it is, to be refused as not a single value. */
const keptText = (value: unknown) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);

/**
 * One non-file field's value: the value to store, a problem, or null when nothing is stored (a
 * blank optional field).
 */
function checkField(field: StoredField, raw: unknown): Check | null {
  if (Array.isArray(raw) || (raw !== null && typeof raw === 'object')) return { error: 'Must be a single value.' };
  // Before the blank check: a value of only line breaks is refused, not taken for an empty field.
  const problem = typeof raw === 'string' ? textProblem(field, raw) : null;
  if (problem) return { error: problem };
  if (isBlank(raw)) {
    if (field.type === 'checkbox') return field.required ? { error: 'Must be checked.' } : { value: false };
    return field.required ? { error: 'Is required.' } : null;
  }
  const checked = checkValue(field, raw);
  if (!('error' in checked) && field.type === 'checkbox' && field.required && checked.value === false) return { error: 'Must be checked.' };
  return checked;
}
