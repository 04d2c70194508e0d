import type { SubmissionReading } from '@lfk/db';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import type { submission } from './schemas.ts';

/** A submission as answered: from its entity or a plain reading of its row (which the entity satisfies). */
export const submissionToWire = (s: SubmissionReading): z.input<typeof submission> => ({
  id: s.id,
  form_id: s.form.id,
  data: s.data as z.input<typeof submission>['data'],
  source: s.source,
  status: s.status,
  spam_reason: s.spamReason ?? null,
  created_at: iso(s.createdAt),
});
