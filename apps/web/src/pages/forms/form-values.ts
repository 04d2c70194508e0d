import type { RouterOutputs } from '@lfk/client';
import type { FieldType, SubmissionMode, UnknownFieldPolicy } from '@lfk/vocabulary';

export type Form = RouterOutputs['forms']['get'];

/**
 * One row of the field builder, as typed: a select's options are one text, one option per line; a
 * file field's `max_size` is in MB (blank: the server's default), its `accept` one text of
 * comma-separated types (blank: any).
 */
export interface EditorField {
  name: string;
  type: FieldType;
  required: boolean;
  label: string;
  options: string;
  max_size: string;
  accept: string;
  multiple: boolean;
  max_files: string;
}

/** The form editor's values: the API's form fields, with lists written as text a person can type. */
export interface EditorValues {
  name: string;
  schema: EditorField[];
  unknown_fields: UnknownFieldPolicy;
  submission_mode: SubmissionMode;
  /** One origin per line. */
  allowed_origins: string;
  redirect_url: string;
  error_redirect_url: string;
  /** One address per line. */
  notify_emails: string;
  project_id: string;
}

/** The editor's fields, by the paths the API's `details` use for them. */
export function editorFieldNames(fieldCount: number): string[] {
  const perField = ['name', 'type', 'required', 'label', 'options', 'max_size', 'accept', 'multiple', 'max_files'];
  return [
    'name',
    'schema',
    ...Array.from({ length: fieldCount }, (_, i) => perField.map((part) => `schema.${i}.${part}`)).flat(),
    'unknown_fields',
    'submission_mode',
    'allowed_origins',
    'redirect_url',
    'error_redirect_url',
    'notify_emails',
    'project_id',
  ];
}

/** Every path the editor can show an error at: a form holds at most 100 fields. */
export const EDITOR_FIELDS = editorFieldNames(100);

export const EMPTY_FIELD: EditorField = {
  name: '',
  type: 'text',
  required: false,
  label: '',
  options: '',
  max_size: '',
  accept: '',
  multiple: false,
  max_files: '',
};

export function newFormValues(projectId: string): EditorValues {
  return {
    name: '',
    schema: [
      { ...EMPTY_FIELD, name: 'email', type: 'email', required: true, label: 'Email' },
      { ...EMPTY_FIELD, name: 'message', type: 'textarea', required: true, label: 'Message' },
    ],
    // A page's form often has an input its fields do not name yet: keep it rather than refuse the visitor.
    unknown_fields: 'keep',
    submission_mode: 'browser',
    allowed_origins: '',
    redirect_url: '',
    error_redirect_url: '',
    notify_emails: '',
    project_id: projectId,
  };
}

export function valuesOf(form: Form): EditorValues {
  return {
    name: form.name,
    schema: form.schema.map((f) => ({
      name: f.name,
      type: f.type,
      required: f.required,
      label: f.label ?? '',
      options: (f.options ?? []).join('\n'),
      max_size: f.max_size === undefined ? '' : String(f.max_size / MB),
      accept: (f.accept ?? []).join(', '),
      multiple: f.multiple ?? false,
      max_files: f.max_files === undefined ? '' : String(f.max_files),
    })),
    unknown_fields: form.unknown_fields,
    submission_mode: form.submission_mode,
    allowed_origins: form.allowed_origins.join('\n'),
    redirect_url: form.redirect_url ?? '',
    error_redirect_url: form.error_redirect_url ?? '',
    notify_emails: form.notify_emails.join('\n'),
    project_id: form.project_id ?? '',
  };
}

/** What the builder calls a MB: the MiB the server's limits are written in (10 MB is 10,485,760 bytes). */
export const MB = 1024 * 1024;

const listOf = (separator: RegExp) => (text: string) =>
  text
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);
const lines = listOf(/\n/);
const commaList = listOf(/[,\n]/);

/** A number as typed: blank is none; anything else goes to the API's schema as a number, or as typed so its error says what is wrong. */
function numberOf(text: string, scale = 1): number | undefined {
  if (text.trim() === '') return undefined;
  const number = Number(text.trim());
  return Number.isFinite(number) ? Math.round(number * scale) : (text as unknown as number);
}

/** A file field's settings as the API takes them; none for other types. */
function fileSettings(f: EditorField) {
  if (f.type !== 'file') return {};
  const accept = commaList(f.accept);
  const maxSize = numberOf(f.max_size, MB);
  const maxFiles = f.multiple ? numberOf(f.max_files) : undefined;
  return {
    ...(maxSize !== undefined ? { max_size: maxSize } : {}),
    ...(accept.length > 0 ? { accept } : {}),
    ...(f.multiple ? { multiple: true } : {}),
    ...(maxFiles !== undefined ? { max_files: maxFiles } : {}),
  };
}

/** The editor's values as the API takes them (blank optional text is "none"). */
export function toApiFields(values: EditorValues) {
  return {
    name: values.name,
    schema: values.schema.map((f) => ({
      name: f.name.trim(),
      type: f.type,
      required: f.required,
      ...(f.label.trim() ? { label: f.label } : {}),
      ...(f.type === 'select' ? { options: lines(f.options) } : {}),
      ...fileSettings(f),
    })),
    unknown_fields: values.unknown_fields,
    submission_mode: values.submission_mode,
    allowed_origins: lines(values.allowed_origins),
    redirect_url: values.redirect_url.trim() ? values.redirect_url : null,
    error_redirect_url: values.error_redirect_url.trim() ? values.error_redirect_url : null,
    notify_emails: lines(values.notify_emails),
    ...(values.project_id ? { project_id: values.project_id } : {}),
  };
}
export type ApiFormFields = ReturnType<typeof toApiFields>;

/** Only what changed, so untouched notification addresses are not sent again. */
export function changedFields(before: ApiFormFields, after: ApiFormFields): Partial<ApiFormFields> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof ApiFormFields)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = after[key];
  }
  return changed as Partial<ApiFormFields>;
}
