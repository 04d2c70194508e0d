import type { CommandContext } from '../command-context.ts';
import { usageError } from '../errors.ts';

export interface PageFlags {
  limit?: string;
  cursor?: string;
}

/** `--limit` and `--cursor`, as the list procedures take them. */
export function pageInput(flags: PageFlags): { limit?: number; cursor?: string } {
  const input: { limit?: number; cursor?: string } = {};
  if (flags.limit !== undefined) {
    if (!/^\d{1,3}$/.test(flags.limit) || Number(flags.limit) < 1 || Number(flags.limit) > 100) {
      throw usageError('invalid_limit', '--limit must be a whole number from 1 to 100.');
    }
    input.limit = Number(flags.limit);
  }
  if (flags.cursor !== undefined) input.cursor = flags.cursor;
  return input;
}

/** After a table: how to get the next page, on stderr so a pipe gets only the rows. */
export function noteNextPage(ctx: CommandContext, nextCursor: string | null, command: string): void {
  if (nextCursor) ctx.out.note(ctx.out.errorStyle.dim(`More: ${command} --cursor ${nextCursor}`));
}
