import { FIELD_TYPES } from '@lfk/vocabulary';
import { usageError } from '../errors.ts';
import { readJsonSource } from './json-source.ts';

// The server checks every field against the form schema; this turns the shorthand into JSON, and
// names the flag when its type is not one the server knows (its answer would only say `schema.0.type`).
export interface FieldSpec {
  name: string;
  type: string;
  required: boolean;
  options?: string[];
  accept?: string[];
  max_size?: number;
  multiple?: boolean;
  max_files?: number;
}

const SHORTHAND_HELP =
  'Use name:type or name:type:required, select=a,b,c for a select field, file=type/sub,type/* for a file field that takes those types ' +
  '(then :multiple or :multiple=N, :max=5MiB); --schema FILE takes anything else.';

/** `512`, `200KB`, `5MiB`, `1GB` as bytes: KB, MB, GB are powers of 1000, KiB, MiB, GiB of 1024. */
const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

function parseSize(value: string, spec: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value);
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) {
    throw usageError(
      'invalid_field',
      `--field ${JSON.stringify(spec)}: max=${JSON.stringify(value)} is not a size.`,
      'Write e.g. max=5MiB, max=500KB or max=1048576 (bytes).',
    );
  }
  return Math.round(Number(match[1]) * unit);
}

/** `email:email:required`, `age:number`, `plan:select=free,pro:required`, `cv:file=application/pdf:required:max=5MiB`. */
export function parseFieldShorthand(value: string): FieldSpec {
  const [name, typeSpec, ...flags] = value.split(':');
  const invalid = () => usageError('invalid_field', `--field ${JSON.stringify(value)} is not name:type[:required].`, SHORTHAND_HELP);
  if (!name || !typeSpec) throw invalid();
  const known: readonly string[] = FIELD_TYPES;
  if (!known.includes(typeSpec) && !typeSpec.startsWith('select=') && !typeSpec.startsWith('file=')) {
    throw usageError(
      'invalid_field',
      `--field ${JSON.stringify(value)}: ${JSON.stringify(typeSpec)} is not a field type.`,
      `The types are ${FIELD_TYPES.join(', ')} (select=a,b,c for a select).`,
    );
  }
  if (typeSpec === 'select') throw usageError('invalid_field', `--field ${JSON.stringify(value)}: a select needs its options.`, 'Write select=a,b,c.');
  const field: FieldSpec = { name, type: typeSpec, required: false };
  const listed = /^(select|file)=(.+)$/.exec(typeSpec);
  if (listed) {
    const items = (listed[2] as string).split(',').map((item) => item.trim());
    field.type = listed[1] as string;
    if (field.type === 'select') field.options = items;
    else field.accept = items;
  }
  for (const flag of flags) {
    const [word, setting] = flag.split('=', 2) as [string, string | undefined];
    if (word === 'required' && setting === undefined && !field.required) {
      field.required = true;
    } else if (field.type === 'file' && word === 'multiple' && field.multiple === undefined) {
      field.multiple = true;
      // The server judges the number (and says which limit it broke); here it only has to be one.
      if (setting !== undefined) {
        if (!/^\d+$/.test(setting))
          throw usageError('invalid_field', `--field ${JSON.stringify(value)}: multiple=${JSON.stringify(setting)} is not a number of files.`, SHORTHAND_HELP);
        field.max_files = Number(setting);
      }
    } else if (field.type === 'file' && word === 'max' && setting !== undefined && field.max_size === undefined) {
      field.max_size = parseSize(setting, value);
    } else {
      throw invalid();
    }
  }
  return field;
}

/** The form schema from repeated --field flags or from --schema, never both. */
export async function schemaFromFlags(fields: string[] | undefined, schemaSource: string | undefined): Promise<unknown[] | undefined> {
  if (fields?.length && schemaSource !== undefined) throw usageError('conflicting_flags', 'Give the fields with --field or with --schema, not both.');
  if (schemaSource !== undefined) {
    const schema = await readJsonSource(schemaSource, '--schema');
    if (!Array.isArray(schema)) throw usageError('invalid_schema', '--schema must hold a JSON array of fields.');
    return schema;
  }
  return fields?.length ? fields.map(parseFieldShorthand) : undefined;
}
