/** How a threshold does on labelled scores: the share of spam it catches, and of ham it misfiles. */
export interface Evaluated {
  threshold: number;
  spamCaught: number;
  hamMisfiled: number;
}

/** A message is filed as spam when its score is above the threshold (DESIGN §19: "above the threshold"). */
export function evaluate(scores: readonly { score: number; spam: boolean }[], threshold: number): Evaluated {
  const spam = scores.filter((s) => s.spam);
  const ham = scores.filter((s) => !s.spam);
  return {
    threshold,
    spamCaught: spam.filter((s) => s.score > threshold).length / Math.max(spam.length, 1),
    hamMisfiled: ham.filter((s) => s.score > threshold).length / Math.max(ham.length, 1),
  };
}

/** The lowest threshold, in steps of 0.01, that misfiles at most `hamShare` of the ham. */
export function thresholdFor(scores: readonly { score: number; spam: boolean }[], hamShare: number): Evaluated {
  for (let hundredths = 1; hundredths < 100; hundredths++) {
    const result = evaluate(scores, hundredths / 100);
    if (result.hamMisfiled <= hamShare) return result;
  }
  return evaluate(scores, 0.99);
}
