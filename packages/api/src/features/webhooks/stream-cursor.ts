import type { StreamPosition } from '@lfk/db';

/**
 * A reader's place in a form's stream of events, as the API gives it (`cursor`) and takes it back
 * (`after`): `evc_`, the transaction's id, `_`, the submission's id. Opaque to readers.
 */
const CURSOR = /^evc_(\d{1,20})_(sub_[0-9a-z]{26})$/;

export const cursorOf = (position: StreamPosition) => `evc_${position.seq}_${position.id}`;

/** The place a cursor names; null for text that is not one. */
export function positionOf(cursor: string): StreamPosition | null {
  const match = CURSOR.exec(cursor);
  return match ? { seq: match[1]!, id: match[2]! } : null;
}
