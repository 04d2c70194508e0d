import { baseModel } from './base-model.ts';
import { featuresOf } from './features.ts';
import { type FieldShape, type Message, messageOf } from './message.ts';
import { learn, type OwnWeights, scoreOf } from './model.ts';
import { reasonsFor, type SpamReasonEntry } from './reasons.ts';

/** What a workspace has taught the filter: its own weights, and the scripts of what it kept. */
export interface WorkspaceLearning {
  weights: OwnWeights;
  scripts: readonly string[];
}

export const NOTHING_LEARNED: WorkspaceLearning = { weights: new Map(), scripts: [] };

export interface ContentVerdict {
  /** 0–1, three decimals. */
  score: number;
  reasons: SpamReasonEntry[];
}

/** A common word the shipped model weighs at least this much towards spam is still worth quoting. */
const STRONG = 1;

/** The shipped model's threshold: where a form's filter starts. */
export const defaultThreshold = () => baseModel().stored.threshold;

/** Scores a submission's values, as its form's fields say how to read them, with what its workspace learned. */
export function judgeContent(
  fields: readonly FieldShape[],
  values: Readonly<Record<string, unknown>>,
  learned: WorkspaceLearning = NOTHING_LEARNED,
): ContentVerdict {
  return judgeMessage(messageOf(fields, values), learned);
}

/** A message sent to this many forms or more in a day is sprayed, whatever its words. */
export const SPRAYED_FORMS = 3;
/** What that adds to the logit: a rule beside the model (no corpus of form submissions teaches it), enough to double the odds twice over. */
const SPRAYED_LOGIT = 1.5;

/** What lfk saw of the message beyond its words: the distinct forms it came to in the last day. */
export interface Sightings {
  forms: number;
}

/** `judgeContent` of a message already read from a submission. */
export function judgeMessage(message: Message, learned: WorkspaceLearning = NOTHING_LEARNED, sightings: Sightings = { forms: 1 }): ContentVerdict {
  const { tokens, signals } = featuresOf(message);
  const { model } = baseModel();
  const scored = scoreOf(model, tokens, learned.weights);
  const telling = (token: string) => !model.common.has(token) || (model.weights.get(token) ?? 0) >= STRONG;
  const reasons = reasonsFor(signals, scored.contributions, learned.scripts, telling);
  let score = scored.score;
  if (sightings.forms >= SPRAYED_FORMS) {
    score = 1 / (1 + Math.exp(-(Math.log(score / (1 - score)) + SPRAYED_LOGIT)));
    reasons.push({ code: 'seen_across_forms', message: `The same message came to ${sightings.forms} forms on this server in the last day.` });
  }
  return { score: Math.round(score * 1000) / 1000, reasons };
}

/** Scripts a workspace remembers having kept submissions in. */
const MAX_SCRIPTS = 12;

/**
 * A member's mark ("spam", or "not spam" and a release from spam) taught to the workspace's own
 * learning: a copy, the one given is left as it was. A kept submission's script becomes one the
 * workspace expects.
 */
export function learnFromMark(
  fields: readonly FieldShape[],
  values: Readonly<Record<string, unknown>>,
  learned: WorkspaceLearning,
  spam: boolean,
): WorkspaceLearning {
  const { tokens, signals } = featuresOf(messageOf(fields, values));
  const weights = new Map(learned.weights);
  learn(baseModel().model, weights, tokens, spam);
  const script = signals.mainScript;
  const scripts = !spam && script !== null && !learned.scripts.includes(script) ? [...learned.scripts, script].slice(-MAX_SCRIPTS) : learned.scripts;
  return { weights, scripts };
}
