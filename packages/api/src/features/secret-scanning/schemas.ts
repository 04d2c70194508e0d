import { TEXT_LIMITS } from '@lfk/vocabulary';
import { z } from 'zod';

/** One token a secret scanner found: GitHub's partner format (fields it may add later are ignored). */
export const leakReportItem = z
  .object({
    token: z.string().max(1000),
    type: z.string().max(200),
    /** Where it was found. */
    url: z.string().max(TEXT_LIMITS.url).optional(),
    /** What kind of place (`content`, `commit`, `npm`, …). */
    source: z.string().max(100).optional(),
  })
  .meta({ id: 'LeakedToken' });

/** The report's body: the tokens found, one or more. */
export const leakReport = z.array(leakReportItem).min(1).max(1000);

/**
 * What the report route hands the procedure: the body exactly as received (the signature is over
 * its bytes) and the two signature headers.
 */
export const leakReportInput = z.object({
  body: z.string(),
  // Any length (the server's header limit bounds them): one too long is a signature that does not verify, a 401.
  key_identifier: z.string().optional(),
  signature: z.string().optional(),
});

/** The answer: each reported token, by its sha256 (never echoed back), labelled. */
export const leakReportLabels = z.array(
  z
    .object({
      token_hash: z.string(),
      token_type: z.string(),
      label: z.enum(['true_positive', 'false_positive']),
    })
    .meta({ id: 'LeakReportLabel' }),
);
