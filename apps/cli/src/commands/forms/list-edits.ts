import type { CommandContext } from '../../command-context.ts';
import { usageError } from '../../errors.ts';
import { canPrompt, confirmOrStop } from '../../terminal/prompts.ts';

// `forms update`'s changes to one of a form's lists (fields, origins): --add-… and --remove-…, or the whole list replaced.

export interface ListEdits {
  add?: string[];
  remove?: string[];
}

/** `list` with `remove` taken out and `add` put at the end; a name to remove must be there, one to add must not. */
export function edited<T>(list: T[], nameOf: (item: T) => string, edits: { add: T[]; remove: string[] }, what: string, flag: string): T[] {
  const names = new Set(list.map(nameOf));
  for (const name of edits.remove) {
    if (!names.has(name)) throw usageError('not_in_form', `The form has no ${what} ${JSON.stringify(name)} to remove (--remove-${flag}).`);
  }
  const kept = list.filter((item) => !edits.remove.includes(nameOf(item)));
  for (const item of edits.add) {
    if (kept.some((k) => nameOf(k) === nameOf(item))) {
      throw usageError('already_in_form', `The form already has the ${what} ${JSON.stringify(nameOf(item))} (--add-${flag}).`);
    }
    kept.push(item);
  }
  return kept;
}

/** An origin as the server stores it (`https://Example.com/` is `https://example.com`); the server judges the rest. */
export function asOrigin(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}

export const hasEdits = (edits: ListEdits) => (edits.add?.length ?? 0) + (edits.remove?.length ?? 0) > 0;

/**
 * Replacing a form's whole list of fields or origins drops what is not named again: said plainly,
 * and asked about on a terminal (`--yes` answers for you); a script is told on stderr.
 */
export async function confirmReplacement(ctx: CommandContext, what: string, before: string[], after: string[], yes: boolean | undefined) {
  const dropped = before.filter((name) => !after.includes(name));
  if (dropped.length === 0) return;
  const sentence = `This replaces every ${what} of the form: ${dropped.map((d) => JSON.stringify(d)).join(', ')} will be removed.`;
  if (yes || !canPrompt()) {
    ctx.out.note(`warning: ${sentence} (To change one, use --add-${what} or --remove-${what}.)`);
    return;
  }
  await confirmOrStop(`${sentence} Continue?`, `--yes to replace every ${what} without asking`, 'Nothing was changed.');
}
