import { defineFeature } from '../../feature.ts';
import { passwordResetsRouter } from './router.ts';

export const passwordResetsFeature = defineFeature({ name: 'passwordResets', router: passwordResetsRouter });
