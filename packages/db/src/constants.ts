/**
 * The vocabulary moved to `@lfk/vocabulary`; this re-export keeps `@lfk/db/constants` working until
 * no import names it (issue 37's last step deletes it). The outbox's states are the database's own.
 */
export * from '@lfk/vocabulary';

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
