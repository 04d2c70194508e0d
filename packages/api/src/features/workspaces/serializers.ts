import type { IWorkspace } from '@lfk/db';
import type { Role } from '@lfk/vocabulary';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import type { workspace } from './schemas.ts';

export const workspaceToWire = (w: IWorkspace, role: Role): z.input<typeof workspace> => ({
  id: w.id,
  name: w.name,
  role,
  file_link_ttl: w.fileLinkTtl ?? null,
  require_two_factor: w.requireTwoFactor ?? false,
  created_at: iso(w.createdAt),
});
