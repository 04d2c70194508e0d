/**
 * A logistic model over a message's distinct tokens: the logit is a bias plus one weight per token
 * present, the sum scaled by 1/√n so that a long message is not judged by its length. Shipped
 * trained (the base); each workspace adds weights of its own, learned from its members' marks,
 * which only ever change that workspace's verdicts.
 */

/** The shipped model: `scripts/train.ts` writes it. */
export interface BaseModel {
  bias: number;
  weights: ReadonlyMap<string, number>;
  /** Words in a twentieth or more of the training mails ("the", "your", "hello"): no workspace learns them, no reason quotes them. */
  common: ReadonlySet<string>;
}

/** The share of training mails a word must be in to be common. */
export const COMMON_SHARE = 0.05;

/** A workspace's own weights, added to the base's token by token. */
export type OwnWeights = Map<string, number>;

const EMPTY: ReadonlyMap<string, number> = new Map();

/**
 * 1/√n, but as if a message had at least `FEW` tokens: a three-word message is little evidence, and
 * its words should move it from the bias as little as three words of a longer one would.
 */
const FEW = 10;
const scaleOf = (tokens: readonly string[]) => 1 / Math.sqrt(Math.max(tokens.length, FEW));
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** What each token added to the logit, the base's and the workspace's parts apart. */
export interface Contribution {
  token: string;
  base: number;
  own: number;
}

export interface Scored {
  /** The probability, as the model reads it, that the message is spam. */
  score: number;
  /** The tokens that moved the logit, as they moved it (scaled). */
  contributions: Contribution[];
}

export function scoreOf(base: BaseModel, tokens: readonly string[], own: ReadonlyMap<string, number> = EMPTY): Scored {
  const scale = scaleOf(tokens);
  let logit = base.bias;
  const contributions: Contribution[] = [];
  for (const token of tokens) {
    const b = (base.weights.get(token) ?? 0) * scale;
    const o = (own.get(token) ?? 0) * scale;
    if (b === 0 && o === 0) continue;
    logit += b + o;
    contributions.push({ token, base: b, own: o });
  }
  return { score: sigmoid(logit), contributions };
}

/**
 * What a workspace may learn: not the common words, and not what a message lacks (`__links:0`,
 * no capitals, no exclamation marks): a few marked messages without links would otherwise teach
 * that every message without links is spam.
 */
const learnable = (base: BaseModel, token: string) => !base.common.has(token) && !(token.startsWith('__') && token.endsWith(':0'));

/** How a workspace's marks teach its own weights. */
export interface LearningLimits {
  /** Step size of one update. */
  rate: number;
  /** Updates per mark, stopping once the model agrees with the mark with this confidence. */
  steps: number;
  confident: number;
  /** The most weights a workspace keeps; past it, those that weigh least go. */
  maxWeights: number;
  /** No weight of a workspace's outweighs this, either way: marks steer the base, they cannot drown it. */
  maxWeight: number;
}

export const LEARNING: LearningLimits = { rate: 2, steps: 8, confident: 0.9, maxWeights: 20_000, maxWeight: 6 };

/**
 * One mark: gradient steps on the workspace's own weights (never the base's) towards `spam`, one at
 * least, until the model agrees with the mark confidently or the steps run out; then the weights
 * are bounded.
 */
export function learn(base: BaseModel, own: OwnWeights, tokens: readonly string[], spam: boolean, limits: LearningLimits = LEARNING): void {
  const target = spam ? 1 : 0;
  const scale = scaleOf(tokens);
  for (let step = 0; step < limits.steps; step++) {
    const { score } = scoreOf(base, tokens, own);
    // Every mark takes one step at least: a mark on what the model already leans towards still counts.
    if (step > 0 && (spam ? score >= limits.confident : score <= 1 - limits.confident)) break;
    const gradient = (score - target) * scale;
    for (const token of tokens) {
      if (!learnable(base, token)) continue;
      const next = (own.get(token) ?? 0) - limits.rate * gradient;
      own.set(token, Math.max(-limits.maxWeight, Math.min(limits.maxWeight, next)));
    }
  }
  if (own.size > limits.maxWeights) keepHeaviest(own, limits.maxWeights);
}

function keepHeaviest(own: OwnWeights, keep: number): void {
  const lightest = [...own].sort((a, b) => Math.abs(a[1]) - Math.abs(b[1])).slice(0, own.size - keep);
  for (const [token] of lightest) own.delete(token);
}

/** One labelled message of a training set. */
export interface Example {
  tokens: string[];
  spam: boolean;
}

export interface TrainingOptions {
  epochs: number;
  rate: number;
  l2: number;
  /** Tokens in fewer training messages than this get no weight: too rare to say anything. */
  minMessages: number;
  /** The shuffle's seed: the same corpus trains the same model. */
  seed: number;
}

export const TRAINING: TrainingOptions = { epochs: 10, rate: 4, l2: 0.004, minMessages: 2, seed: 42 };

/**
 * Stochastic gradient descent on the log loss, the rate falling by epoch, in a seeded order. The
 * bias is then moved by the log of the ham-to-spam ratio trained on: the corpus's own mix of spam
 * is no prior for a form's, and an even one is what the threshold is set against.
 */
export function train(examples: readonly Example[], options: TrainingOptions = TRAINING): BaseModel {
  const counts = new Map<string, number>();
  for (const { tokens } of examples) for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  const kept = examples.map(({ tokens, spam }) => ({
    tokens: tokens.filter((t) => (counts.get(t) ?? 0) >= options.minMessages),
    scale: scaleOf(tokens),
    spam,
  }));
  const weights = new Map<string, number>();
  let bias = 0;
  let seed = options.seed;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    const order = kept.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const rate = options.rate / (1 + epoch);
    for (const index of order) {
      const { tokens, scale, spam } = kept[index]!;
      let logit = bias;
      for (const token of tokens) logit += (weights.get(token) ?? 0) * scale;
      const gradient = sigmoid(logit) - (spam ? 1 : 0);
      bias -= rate * gradient;
      for (const token of tokens) {
        const weight = weights.get(token) ?? 0;
        weights.set(token, weight - rate * (gradient * scale + options.l2 * weight));
      }
    }
  }
  const spam = examples.filter((e) => e.spam).length;
  const common = new Set([...counts].filter(([token, count]) => !token.startsWith('__') && count >= COMMON_SHARE * examples.length).map(([token]) => token));
  return { bias: bias + Math.log((examples.length - spam) / Math.max(spam, 1)), weights, common };
}
