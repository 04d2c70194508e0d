/** Entities → the documented wire objects: the dates every serializer writes. */
export const iso = (date: Date) => date.toISOString();
export const isoOrNull = (date: Date | null | undefined) => (date ? date.toISOString() : null);
