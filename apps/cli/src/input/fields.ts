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
}

const SHORTHAND_HELP = 'Use name:type or name:type:required, and select=a,b,c for a select field; --schema FILE takes anything else.';

/** `email:email:required`, `age:number`, `plan:select=free,pro:required`. */
export function parseFieldShorthand(value: string): FieldSpec {
  const parts = value.split(':');
  const [name, typeSpec, flag, ...rest] = parts;
  if (!name || !typeSpec || rest.length > 0 || (flag !== undefined && flag !== 'required')) {
    throw usageError('invalid_field', `--field ${JSON.stringify(value)} is not name:type[:required].`, SHORTHAND_HELP);
  }
  const known: readonly string[] = FIELD_TYPES;
  if (!known.includes(typeSpec) && !typeSpec.startsWith('select=')) {
    throw usageError('invalid_field', `--field ${JSON.stringify(value)}: ${JSON.stringify(typeSpec)} is not a field type.`, `The types are ${FIELD_TYPES.join(', ')} (select=a,b,c for a select).`);
  }
  if (typeSpec === 'select') throw usageError('invalid_field', `--field ${JSON.stringify(value)}: a select needs its options.`, 'Write select=a,b,c.');
  const field: FieldSpec = { name, type: typeSpec, required: flag === 'required' };
  const select = /^select=(.+)$/.exec(typeSpec);
  if (select) {
    field.type = 'select';
    field.options = (select[1] as string).split(',').map((option) => option.trim());
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
