import { defineFeature } from '../../feature.ts';
import { draftsRouter } from './router.ts';
import { draftSweep } from './tasks.ts';

/** Drafts: what a visitor typed and has not sent, kept for the form's page (a form's `drafts` setting). */
export const draftsFeature = defineFeature({
  name: 'drafts',
  router: draftsRouter,
  tasks: ({ services, log }) => [draftSweep(services, log)],
});
