import { defineFeature } from '../../feature.ts';
import { projectsRouter } from './router.ts';

export const projectsFeature = defineFeature({ name: 'projects', router: projectsRouter });
