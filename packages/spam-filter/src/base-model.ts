import { readFileSync } from 'node:fs';
import type { BaseModel } from './model.ts';

/** `base-model.json` as `scripts/train.ts` writes it. */
export interface StoredBaseModel {
  /** What it was trained on and how, and how it did on the evaluation sets: for people. */
  trained: { sets: string[]; messages: number; options: Record<string, number> };
  evaluation: { sets: string[]; threshold: number; spamCaught: number; hamMisfiled: number };
  /** The threshold a form's filter starts at: the lowest that misfiles at most 0.5 % of the evaluation's ham. */
  threshold: number;
  bias: number;
  weights: Record<string, number>;
  common: string[];
}

/** Weights lighter than this are left out of the file: they change no verdict. */
const LIGHTEST = 0.005;

export function storedModel(model: BaseModel, about: Omit<StoredBaseModel, 'bias' | 'weights' | 'common'>): StoredBaseModel {
  const weights: Record<string, number> = {};
  for (const [token, weight] of [...model.weights].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (Math.abs(weight) >= LIGHTEST) weights[token] = Math.round(weight * 10_000) / 10_000;
  }
  return { ...about, bias: Math.round(model.bias * 10_000) / 10_000, weights, common: [...model.common].sort() };
}

export function modelOf(stored: StoredBaseModel): BaseModel {
  return { bias: stored.bias, weights: new Map(Object.entries(stored.weights)), common: new Set(stored.common) };
}

export const BASE_MODEL_FILE = new URL('./base-model.json', import.meta.url);

let loaded: { stored: StoredBaseModel; model: BaseModel } | undefined;

/** The shipped model, read once. */
export function baseModel(): { stored: StoredBaseModel; model: BaseModel } {
  if (!loaded) {
    const stored = JSON.parse(readFileSync(BASE_MODEL_FILE, 'utf8')) as StoredBaseModel;
    loaded = { stored, model: modelOf(stored) };
  }
  return loaded;
}
