import { type Bounded, type IdPrefix, isId, type ReadBounds } from '@lfk/db';
import { PAGE_MAX_BYTES } from '@lfk/vocabulary';
import type { FilterQuery } from '@mikro-orm/core';
import { invalidField } from '../errors.ts';
import type { ListInput } from '../common-schemas.ts';

/**
 * Ids sort by creation time, so "newest first" is "id descending" and a cursor is the last id seen:
 * the next page is the ids below it.
 */
function cursorOf(prefix: IdPrefix, input: ListInput): string | undefined {
  if (input.cursor === undefined) return undefined;
  if (!isId(prefix, input.cursor)) {
    throw invalidField('cursor', 'Not a cursor from this list.');
  }
  return input.cursor;
}

/** Fetch `limit + 1` rows; the extra one only says whether there is a next page. */
function page<T, R>(rows: T[], limit: number, cursorOf: (row: T) => string, toWire: (row: T) => R) {
  const data = rows.slice(0, limit);
  return {
    data: data.map(toWire),
    next_cursor: rows.length > limit && data.length > 0 ? cursorOf(data[data.length - 1]!) : null,
  };
}

/**
 * One page of rows read newest first: `read` gets the cursor (rows below it) and how many to read,
 * one more than the page holds.
 */
export async function pageOf<T, R>(
  prefix: IdPrefix,
  input: ListInput,
  read: (before: string | undefined, limit: number) => Promise<T[]>,
  cursorOfRow: (row: T) => string,
  toWire: (row: T) => R,
) {
  return page(await read(cursorOf(prefix, input), input.limit + 1), input.limit, cursorOfRow, toWire);
}

/** One page of the rows a repository (`BaseRepository.newestFirst`) holds matching `where` (a workspace's keys, a form's submissions…), newest first. */
export async function pageNewestFirst<T extends { id: string }, R>(
  repository: { newestFirst(where: FilterQuery<T>, before: string | undefined, limit: number): Promise<T[]> },
  prefix: IdPrefix,
  where: FilterQuery<NoInfer<T>>,
  input: ListInput,
  toWire: (row: NoInfer<T>) => R,
) {
  const read = (before: string | undefined, limit: number) => repository.newestFirst(where, before, limit);
  return pageOf(prefix, input, read, (row) => row.id, toWire);
}

/**
 * One page of rows that can be large (submission values, forms' fields, deliveries' payloads):
 * `read` gets the cursor and the page's bounds, `limit` rows and `PAGE_MAX_BYTES`, and answers
 * what fitted and whether more follow. A page may end before `limit`, with a `next_cursor`.
 */
export async function pageWithin<T extends { id: string }, R>(
  prefix: IdPrefix,
  input: ListInput,
  read: (before: string | undefined, bounds: ReadBounds) => Promise<Bounded<T>>,
  toWire: (row: T) => R,
) {
  const { rows, more } = await read(cursorOf(prefix, input), { rows: input.limit, bytes: PAGE_MAX_BYTES });
  return { data: rows.map(toWire), next_cursor: more && rows.length > 0 ? rows[rows.length - 1]!.id : null };
}
