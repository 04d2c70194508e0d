import { type KeyObject, verify } from 'node:crypto';
import { ApiKey, AuditEvent } from '@lfk/db';
import { isWellFormedApiKey } from '../../credentials/api-key-format.ts';
import { sha256 } from '../../credentials/secrets.ts';
import { ApiError, detailsOfZodError } from '../../errors.ts';
import { emailOwners } from '../../infrastructure/outbox.ts';
import { rest } from '../../procedure-meta.ts';
import { publicProcedure, router } from '../../trpc.ts';
import { leakedKeyEmail } from './emails.ts';
import { leakReport, leakReportInput, leakReportLabels } from './schemas.ts';

/** Who reports leaks in this format; named as the actor of `api_key.leaked` events. */
const REPORTER = { type: 'secret_scanner', id: 'github' } as const;
const REPORTER_NAME = 'GitHub secret scanning';

/**
 * GitHub's partner format: an ECDSA (P-256, SHA-256) signature of the raw body, base64 DER in
 * `Github-Public-Key-Signature`, by the key `Github-Public-Key-Identifier` names. Only keys the
 * operator trusts (`LFK_SECRET_SCANNING_KEYS`) are known; anything else does not verify.
 */
/** A P-256 signature is at most 72 bytes of DER, 96 in base64: anything much longer is not one. */
const MAX_SIGNATURE_LENGTH = 1000;

export function verifiesReport(
  trusted: ReadonlyMap<string, KeyObject>,
  body: string,
  keyIdentifier: string | undefined,
  signature: string | undefined,
): boolean {
  if (!keyIdentifier || !signature || signature.length > MAX_SIGNATURE_LENGTH) return false;
  const key = trusted.get(keyIdentifier);
  if (!key || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  try {
    return verify('sha256', Buffer.from(body, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

function parseReport(body: string) {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ApiError('invalid_json');
  }
  const parsed = leakReport.safeParse(json);
  if (!parsed.success) throw new ApiError('invalid_request', { details: detailsOfZodError(parsed.error) });
  return parsed.data;
}

export const secretScanningRouter = router({
  /**
   * A signed report of tokens found in public. Each of ours that still works is revoked at once
   * (`leaked`), its owners emailed where it was found, and an `api_key.leaked` event recorded; each
   * token is labelled `true_positive` (a key lfk issued) or `false_positive`. Tokens that are not
   * keys by their checksum are labelled without a lookup. Badly signed: 401 and nothing changes.
   */
  report: publicProcedure
    .meta(
      rest('POST /v1/secret-scanning/reports', 200, 'Report leaked API keys (GitHub secret scanning partner format, signed)', {
        transport: 'signed_report',
        body: leakReport,
        errors: ['invalid_signature', 'invalid_json'],
      }),
    )
    .input(leakReportInput)
    .output(leakReportLabels)
    .mutation(async ({ ctx, input }) => {
      if (!verifiesReport(ctx.services.secretScanningKeys, input.body, input.key_identifier, input.signature)) {
        throw new ApiError('invalid_signature');
      }
      const report = parseReport(input.body);
      const now = ctx.services.now();
      const labels = [];
      for (const found of report) {
        const hash = sha256(found.token);
        let ours = false;
        if (isWellFormedApiKey(found.token)) {
          const revoked = await ctx.em.fork().transactional(async (em) => {
            const keys = em.getRepository(ApiKey);
            const key = await keys.revokeLeaked(hash, now);
            if (key === null) return { ours: await keys.existsByHash(hash), key: null };
            em.getRepository(AuditEvent).record({
              workspaceId: key.workspaceId,
              action: 'api_key.leaked',
              actor: REPORTER,
              target: { type: 'api_key', id: key.id },
              data: {
                reporter: REPORTER_NAME,
                key_identifier: input.key_identifier,
                url: found.url ?? null,
                source: found.source ?? null,
                type: found.type,
              },
            });
            const url = found.url ?? null;
            await emailOwners(em, key.workspaceId, (to) => leakedKeyEmail({ to, key, url, reporter: REPORTER_NAME, publicUrl: ctx.services.publicUrl }));
            return { ours: true, key };
          });
          ours = revoked.ours;
          if (revoked.key) {
            ctx.services.apiKeyCache.forget(hash);
            ctx.services.wakeMailer();
          }
        }
        labels.push({ token_hash: hash, token_type: found.type, label: ours ? ('true_positive' as const) : ('false_positive' as const) });
      }
      return labels;
    }),
});
