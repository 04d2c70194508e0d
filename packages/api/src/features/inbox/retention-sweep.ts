import { AuditEvent, type Database, Form, FormEvent, Submission } from '@lfk/db';
import { SPAM_RETENTION_DAYS, WEBHOOK_RECOVER_MAX_DAYS } from '@lfk/vocabulary';
import { DAY_MS } from '@lfk/vocabulary';
import { inBatches } from '../../infrastructure/batches.ts';
import { SYSTEM_ACTOR } from '../../trpc.ts';

/**
 * Deletes the submissions older than their form's `retention_days` and the spam older than
 * `SPAM_RETENTION_DAYS`, in short batches, each its own transaction with its audit events (counts
 * per form, never values). Each batch takes an advisory lock first: a replica that cannot have it
 * leaves the sweep to the one that has, so the sweep runs once across replicas. Answers how many
 * were deleted.
 */
export function sweepExpiredSubmissions(db: Database, now: Date, batchSize?: number): Promise<number> {
  const spamBefore = new Date(now.getTime() - SPAM_RETENTION_DAYS * DAY_MS);
  return inBatches(
    db,
    async (em, limit) => {
      const submissions = em.getRepository(Submission);
      if (!(await submissions.takeSweepLock())) return 0;
      const batch = await submissions.deleteExpiredBatch(now, spamBefore, limit);
      const workspaces = await em.getRepository(Form).workspacesOf([...batch.byForm.keys()]);
      for (const [formId, counts] of batch.byForm) {
        const workspaceId = workspaces.get(formId);
        // An unclaimed form has no workspace, so no audit log: its spam goes unrecorded.
        if (!workspaceId) continue;
        em.getRepository(AuditEvent).record({
          workspaceId,
          action: 'submissions.expired',
          actor: SYSTEM_ACTOR,
          target: { type: 'form', id: formId },
          data: { retention: counts.retention, spam: counts.spam },
        });
      }
      return batch.deleted;
    },
    batchSize,
  );
}

/**
 * Deletes the forms' recorded events (`FormEvent`) older than a recover reaches, in short batches
 * (each replica may run it: rows another holds are skipped). Answers how many were deleted.
 */
export function sweepPastEvents(db: Database, now: Date, batchSize?: number): Promise<number> {
  const before = new Date(now.getTime() - WEBHOOK_RECOVER_MAX_DAYS * DAY_MS);
  return inBatches(db, (em, limit) => em.getRepository(FormEvent).deleteBatchBefore(before, limit), batchSize);
}
