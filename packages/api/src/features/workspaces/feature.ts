import { defineFeature } from '../../feature.ts';
import { workspacesRouter } from './router.ts';

export const workspacesFeature = defineFeature({ name: 'workspaces', router: workspacesRouter });
