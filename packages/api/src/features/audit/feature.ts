import { defineFeature } from '../../feature.ts';
import { auditEventsRouter } from './router.ts';

export const auditFeature = defineFeature({ name: 'auditEvents', router: auditEventsRouter });
