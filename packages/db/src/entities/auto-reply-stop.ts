import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';
import { AutoReplyStopRepository } from '../repositories/auto-reply-stops.ts';
import { Workspace } from './workspace.ts';

/**
 * An address that asked for no more auto-replies from a workspace's forms (the `List-Unsubscribe`
 * link of one): its forms send it none from then on. Goes with the workspace.
 */
export const AutoReplyStop = defineEntity({
  name: 'AutoReplyStop',
  tableName: 'auto_reply_stops',
  repository: () => AutoReplyStopRepository,
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade'),
    email: p.string().primary().length(TEXT_LIMITS.email),
    createdAt: p.datetime(),
  },
});
export type IAutoReplyStop = InferEntity<typeof AutoReplyStop>;
