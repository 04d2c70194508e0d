import { defineFeature } from '../../feature.ts';
import { invitationsRouter } from './router.ts';

export const invitationsFeature = defineFeature({ name: 'invitations', router: invitationsRouter });
