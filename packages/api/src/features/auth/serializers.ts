import type { IUser } from '@lfk/db';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import type { user } from './schemas.ts';

/** An account → its wire object. Password hashes never pass through here. */
export const userToWire = (u: IUser): z.input<typeof user> => ({
  id: u.id,
  email: u.email,
  name: u.name ?? null,
  email_verified: u.emailVerifiedAt != null,
  created_at: iso(u.createdAt),
});
