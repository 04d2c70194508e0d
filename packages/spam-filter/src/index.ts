export { baseModel } from './base-model.ts';
export { evaluate, thresholdFor } from './evaluation.ts';
export { featuresOf } from './features.ts';
export {
  type ContentVerdict,
  defaultThreshold,
  judgeContent,
  judgeMessage,
  learnFromMark,
  NOTHING_LEARNED,
  type Sightings,
  SPRAYED_FORMS,
  type WorkspaceLearning,
} from './filter.ts';
export { type FieldShape, type Message, messageOf } from './message.ts';
export { LEARNING, type LearningLimits, learn, type OwnWeights, scoreOf } from './model.ts';
export type { SpamReasonEntry } from './reasons.ts';
