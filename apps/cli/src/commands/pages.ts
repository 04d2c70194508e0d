import { PAGE_LIMIT } from '@lfk/vocabulary';
import type { CommandContext } from '../command-context.ts';
import { usageError } from '../errors.ts';

export interface PageFlags {
  limit?: string;
  cursor?: string;
  all?: true;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface PageInput {
  limit?: number;
  cursor?: string;
}

/** `--limit` and `--cursor`, as the list procedures take them. */
function pageInput(flags: PageFlags): PageInput {
  const input: PageInput = {};
  if (flags.limit !== undefined) {
    if (!/^\d{1,3}$/.test(flags.limit) || Number(flags.limit) < 1 || Number(flags.limit) > PAGE_LIMIT.max) {
      throw usageError('invalid_limit', `--limit must be a whole number from 1 to ${PAGE_LIMIT.max}.`);
    }
    input.limit = Number(flags.limit);
  }
  if (flags.cursor !== undefined) input.cursor = flags.cursor;
  return input;
}

/**
 * One page as the flags ask for it, or with `--all` every page from there on (`--limit` is then
 * the size of each request, the most a page holds unless given), as one page with no next cursor.
 */
export async function listed<T>(flags: PageFlags, fetchPage: (input: PageInput) => Promise<Page<T>>): Promise<Page<T>> {
  const input = pageInput(flags);
  if (!flags.all) return fetchPage(input);
  const data: T[] = [];
  let cursor = input.cursor;
  do {
    const page = await fetchPage({ limit: input.limit ?? PAGE_LIMIT.max, ...(cursor ? { cursor } : {}) });
    data.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return { data, next_cursor: null };
}

/** The first row `matches` accepts, reading the list a page (of 100) at a time until one does. */
export async function findListed<T>(fetchPage: (input: PageInput) => Promise<Page<T>>, matches: (row: T) => boolean): Promise<T | undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage({ limit: PAGE_LIMIT.max, ...(cursor ? { cursor } : {}) });
    const found = page.data.find(matches);
    if (found) return found;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return undefined;
}

/**
 * After a table: how to get the next page (this command again, with its `args`), on stderr so a
 * pipe gets only the rows.
 */
export function noteNextPage(ctx: CommandContext, nextCursor: string | null, ...args: string[]): void {
  const command = [ctx.commandLine, ...args].join(' ');
  if (nextCursor) ctx.out.note(ctx.out.errorStyle.dim(`More: ${command} --cursor ${nextCursor} (or --all)`));
}
