import { defineFeature } from '../../feature.ts';
import { deviceLoginsRouter } from './router.ts';

export const deviceSignInFeature = defineFeature({ name: 'deviceLogins', router: deviceLoginsRouter });
