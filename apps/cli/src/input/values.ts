import { usageError } from '../errors.ts';
import { readJsonSource } from './json-source.ts';

/**
 * Submission values from repeated `--data name=value` (text, as an HTML form sends it) or from
 * --data-json. Without `required` (files are sent), none at all is an empty object.
 */
export async function valuesFromFlags(pairs: string[] | undefined, jsonSource: string | undefined, required = true): Promise<Record<string, unknown>> {
  if (pairs?.length && jsonSource !== undefined) throw usageError('conflicting_flags', 'Give the values with --data or with --data-json, not both.');
  if (jsonSource !== undefined) {
    const values = await readJsonSource(jsonSource, '--data-json');
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      throw usageError('invalid_data', '--data-json must hold a JSON object of field values.');
    }
    return values as Record<string, unknown>;
  }
  if (!pairs?.length && !required) return {};
  if (!pairs?.length)
    throw usageError('missing_data', 'Give the values with --data name=value (repeatable) or --data-json FILE|-, and files with --file field=path.');
  const values: Record<string, unknown> = Object.create(null);
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw usageError('invalid_data', `--data ${JSON.stringify(pair)} is not name=value.`);
    const name = pair.slice(0, at);
    if (Object.hasOwn(values, name)) throw usageError('invalid_data', `--data gives ${name} twice.`);
    values[name] = pair.slice(at + 1);
  }
  return values;
}
