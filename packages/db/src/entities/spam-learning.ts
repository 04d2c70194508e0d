import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { SpamLearningRepository } from '../repositories/spam-learnings.ts';
import { Workspace } from './workspace.ts';

/**
 * What a workspace's marks taught the content filter (`@lfk/spam-filter`): its own weights over
 * the shipped model's, and the scripts of what it kept; read by that workspace's submissions
 * alone. Marks teach at most so many an hour (`marksInHour` since `hourStartedAt`). Goes with the
 * workspace.
 */
export const SpamLearning = defineEntity({
  name: 'SpamLearning',
  tableName: 'spam_learnings',
  repository: () => SpamLearningRepository,
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade'),
    /** Token → weight, bounded in count (`LEARNING.maxWeights`) and size. */
    weights: p.json<Record<string, number>>(),
    scripts: p.json<string[]>(),
    /** Marks taught in all. */
    marks: p.integer().default(0),
    hourStartedAt: p.datetime(),
    marksInHour: p.integer().default(0),
    updatedAt: p.datetime(),
  },
});
export type ISpamLearning = InferEntity<typeof SpamLearning>;
