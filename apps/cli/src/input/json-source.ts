import { readFile } from 'node:fs/promises';
import { usageError } from '../errors.ts';
import { readStdin } from '../terminal/prompts.ts';

/** Reads JSON from a file, or from standard input when the name is `-`. */
export async function readJsonSource(source: string, flag: string): Promise<unknown> {
  let text: string;
  if (source === '-') {
    text = await readStdin(`${flag} JSON`);
  } else {
    try {
      text = await readFile(source, 'utf8');
    } catch (error) {
      throw usageError('unreadable_file', `${flag}: cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usageError('invalid_json', `${flag}: ${source === '-' ? 'standard input' : source} is not valid JSON: ${(error as Error).message}`);
  }
}
