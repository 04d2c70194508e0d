import { defineFeature } from '../../feature.ts';
import { twoFactorRouter } from './router.ts';

export const twoFactorFeature = defineFeature({ name: 'twoFactor', router: twoFactorRouter });
