import { defineFeature } from '../../feature.ts';
import { autoReplyStopsRouter } from './router.ts';

export const autoRepliesFeature = defineFeature({ name: 'autoReplyStops', router: autoReplyStopsRouter });
