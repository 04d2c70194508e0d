import { ApiError } from '../../errors.ts';
import type { SecretBox } from '../../credentials/secret-box.ts';
import { rest } from '../../procedure-meta.ts';
import { formMemberProcedure, formsScopeProcedure } from '../../trpc.ts';
import { findReachableForm } from '../forms/rules.ts';
import { auditWebhook, findEndpoint, lockEndpoint, oneWithLastDelivery, signing } from './endpoint-access.ts';
import { rotatedWebhookSecret, webhook, webhookIdInput, webhookSecret, webhookSecretNumberInput } from './schemas.ts';
import { afterRotation, livePrevious, MAX_PREVIOUS_SECRETS, secretContext } from './secrets.ts';
import { generateSigningKey } from './signing.ts';

/** The plaintext of a sealed secret, or null when it was sealed under another key. */
function openable(box: SecretBox, sealed: string, context: string): string | null {
  try {
    return box.open(sealed, context);
  } catch {
    return null;
  }
}

/** An endpoint's signing secrets: revealing the current one, rotating it, ending one rotated away early. */
export const secretProcedures = {
  revealSecret: formMemberProcedure
    .meta(
      rest(
        'GET /v1/forms/:form_id/webhooks/:webhook_id/secret',
        200,
        "An endpoint's signing secret (members' sessions only; a key cannot read it). An `ed25519` endpoint shares none",
        { errors: ['webhook_not_found', 'webhook_not_signed', 'webhook_secret_not_shared'], sudo: true },
      ),
    )
    .input(webhookIdInput)
    .output(webhookSecret)
    .query(async ({ ctx, input }) => {
      const found = signing(await findEndpoint(ctx.em, ctx.form.id, input.webhook_id));
      if (found.signing !== 'hmac-sha256') throw new ApiError('webhook_secret_not_shared');
      await ctx.em.transactional(async (em) => {
        auditWebhook(em, found, ctx.form.workspace!.id, ctx.actor, 'webhook.secret_revealed');
      });
      return { secret: ctx.services.secretBox.open(found.secretSealed, secretContext(found.id, 'current')) };
    }),

  rotateSecret: formsScopeProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/webhooks/:webhook_id/rotate-secret',
        201,
        'A new signing secret, in this answer only (with `ed25519` signing, a new key pair: its `public_key`). ' +
          'The one it replaces keeps signing beside it for 24 hours, as does each ' +
          `rotated away before within its own 24 hours (at most ${MAX_PREVIOUS_SECRETS}: a rotation past them ends the oldest at once)`,
        { errors: ['form_not_found', 'webhook_not_found', 'webhook_not_signed'] },
      ),
    )
    .input(webhookIdInput)
    .output(rotatedWebhookSecret)
    .mutation(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const box = ctx.services.secretBox;
      const now = ctx.services.now();
      const { rotated, key } = await ctx.em.transactional(async (em) => {
        const found = signing(await lockEndpoint(em, form.id, input.webhook_id));
        const key = generateSigningKey(found.signing);
        const plain = openable(box, found.secretSealed, secretContext(found.id, 'current'));
        const current = { plain, publicKey: found.publicKey ?? null, number: found.secretNumber, createdAt: found.secretCreatedAt };
        found.previousSecrets = afterRotation(box, found, current, now);
        found.secretSealed = box.seal(key.secret, secretContext(found.id, 'current'));
        found.publicKey = key.publicKey;
        found.secretNumber += 1;
        found.secretCreatedAt = now;
        auditWebhook(em, found, form.workspace!.id, ctx.actor, 'webhook.secret_rotated');
        return { rotated: found, key };
      });
      const replaced = rotated.previousSecrets[0];
      return {
        secret: rotated.signing === 'hmac-sha256' ? key.secret : null,
        public_key: key.publicKey,
        number: rotated.secretNumber,
        previous_secret_expires_at: replaced?.number === rotated.secretNumber - 1 ? replaced.expires_at : null,
      };
    }),

  endSecret: formsScopeProcedure
    .meta(
      rest(
        'DELETE /v1/forms/:form_id/webhooks/:webhook_id/secrets/:secret_number',
        200,
        'Stop a secret rotated away from signing now, before its 24 hours are up (the current secret is replaced by rotating, not ended)',
        { errors: ['form_not_found', 'webhook_not_found', 'webhook_not_signed', 'webhook_secret_not_found'] },
      ),
    )
    .input(webhookSecretNumberInput)
    .output(webhook)
    .mutation(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const now = ctx.services.now();
      const updated = await ctx.em.transactional(async (em) => {
        const found = signing(await lockEndpoint(em, form.id, input.webhook_id));
        const live = livePrevious(found.previousSecrets, now);
        if (!live.some((secret) => secret.number === input.secret_number)) throw new ApiError('webhook_secret_not_found');
        found.previousSecrets = live.filter((secret) => secret.number !== input.secret_number);
        auditWebhook(em, found, form.workspace!.id, ctx.actor, 'webhook.secret_ended', { number: input.secret_number });
        return found;
      });
      return oneWithLastDelivery(ctx.em, updated);
    }),
};
