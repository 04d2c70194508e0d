import { defineFeature } from '../../feature.ts';
import { membersRouter } from './router.ts';

export const membersFeature = defineFeature({ name: 'members', router: membersRouter });
