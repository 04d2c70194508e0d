import type { IProject } from '@lfk/db';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import type { project } from './schemas.ts';

export const projectToWire = (p: IProject): z.input<typeof project> => ({
  id: p.id,
  workspace_id: p.workspace.id,
  name: p.name,
  is_default: p.isDefault,
  created_at: iso(p.createdAt),
});
