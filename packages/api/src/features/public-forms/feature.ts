import { defineFeature } from '../../feature.ts';
import { publicFormsRouter } from './router.ts';

/** The page a form lives on: what it may read of the form (and, in time, the drafts it keeps). */
export const publicFormsFeature = defineFeature({ name: 'publicForms', router: publicFormsRouter });
