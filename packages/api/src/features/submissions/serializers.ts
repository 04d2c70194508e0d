import type { ISubmission } from '@lfk/db';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import type { submission } from './schemas.ts';

export const submissionToWire = (s: ISubmission): z.input<typeof submission> => ({
  id: s.id,
  form_id: s.form.id,
  data: s.data as z.input<typeof submission>['data'],
  source: s.source,
  created_at: iso(s.createdAt),
});
