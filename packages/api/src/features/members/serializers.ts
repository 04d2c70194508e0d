import type { IMembership } from '@lfk/db';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import type { member } from './schemas.ts';

export const memberToWire = (m: IMembership): z.input<typeof member> => ({
  user_id: m.user.id,
  email: m.user.email,
  name: m.user.name ?? null,
  role: m.role,
  created_at: iso(m.createdAt),
});
