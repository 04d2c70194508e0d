import { type FileReading, SubmissionFile, type SubmissionReading } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import { fileToWire } from '../files/serializers.ts';
import type { submission } from './schemas.ts';

/** A submission as answered, with its files: from its entity or a plain reading of its row (which the entity satisfies). */
export const submissionToWire = (s: SubmissionReading, files: readonly FileReading[] = []): z.input<typeof submission> => ({
  id: s.id,
  form_id: s.form.id,
  data: s.data as z.input<typeof submission>['data'],
  files: files.map(fileToWire),
  source: s.source,
  status: s.status,
  spam_reason: s.spamReason ?? null,
  spam_score: s.spamScore ?? null,
  spam_reasons: s.spamReasons ?? [],
  created_at: iso(s.createdAt),
});

/** One submission as answered, its files read for it. */
export async function submissionWithFiles(em: EntityManager, s: SubmissionReading): Promise<z.input<typeof submission>> {
  const files = await em.getRepository(SubmissionFile).ofSubmissions([s.id]);
  return submissionToWire(s, files.get(s.id));
}
