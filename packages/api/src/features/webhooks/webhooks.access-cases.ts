/**
 * The authorization matrix's rows for webhooks: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { until } from '@lfk/testing';
import { expect } from 'vitest';
import { type AccessCase, createForm, formBody, formsScope, type Prepared, t, workspaceMember, type World } from '../../test-tables/access.ts';

/**
 * Where the matrix's webhooks point: an https URL of a name that never resolves (`.invalid`, RFC 6761).
 * It is accepted (a name that does not resolve yet is not refused), and every POST to it fails at once.
 */
const WEBHOOK_URL = 'https://hooks.lfk.invalid/matrix';

/** A fresh form of W with one webhook endpoint, made with W's key: one per cell, so no form nears its 5 endpoints. */
async function freshWebhook(w: World): Promise<{ formId: string; webhookId: string; secret: string }> {
  const formId = (await createForm(t, w.key.key, formBody)).id;
  const res = await t.request('POST', `/v1/forms/${formId}/webhooks`, { token: w.key.key, body: { url: WEBHOOK_URL } });
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${res.body}`);
  return { formId, webhookId: res.json.id, secret: res.json.secret };
}

const webhookParams = (hook: { formId: string; webhookId: string }) => ({ form_id: hook.formId, webhook_id: hook.webhookId });

/**
 * A fresh webhook with one delivery: a submission (with W's key) to its form queues it. The
 * first attempt fails (the URL never resolves); once it is recorded the delivery is written down
 * as failed for good, as when its attempts run out, so no attempt of the worker is in flight
 * when a cell reads or retries it.
 */
async function freshDelivery(w: World): Promise<Prepared> {
  const hook = await freshWebhook(w);
  const submitted = await t.request('POST', `/v1/forms/${hook.formId}/submissions`, { token: w.key.key, body: { email: 'hook@example.org' } });
  if (submitted.status !== 201) throw new Error(`submission failed: ${submitted.status} ${submitted.body}`);
  const deliveryId = await until("the delivery's first attempt", async () => {
    const [row] = await t.sql<{ id: string }>(
      'select id from webhook_deliveries where endpoint_id = ? and attempt_count > 0 and locked_until is null and jsonb_array_length(attempts) > 0',
      [hook.webhookId],
    );
    return row?.id;
  });
  await t.sql("update webhook_deliveries set status = 'failed', next_attempt_at = null where id = ?", [deliveryId]);
  return {
    params: { ...webhookParams(hook), delivery_id: deliveryId },
    ref: { webhookId: hook.webhookId, deliveryId, submissionId: submitted.json.id },
  };
}

export const accessCases: AccessCase[] = [
  {
    route: 'POST /v1/forms/:form_id/webhooks',
    // A fresh form per cell: at most 5 endpoints a form.
    prepare: async (w) => {
      const formId = (await createForm(t, w.key.key, formBody)).id;
      return { params: { form_id: formId }, body: { url: WEBHOOK_URL, description: 'Orders' }, ref: { formId } };
    },
    success: (res, { prepared }) => {
      expect(res.json).toMatchObject({
        id: expect.stringMatching(/^wh_/),
        form_id: prepared.ref!.formId,
        url: WEBHOOK_URL,
        description: 'Orders',
        events: ['submission.created'],
        enabled: true,
      });
      expect(res.json.secret).toMatch(/^whsec_/);
    },
    expect: formsScope(201),
  },
  {
    route: 'GET /v1/forms/:form_id/webhooks',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: { form_id: hook.formId }, ref: { ...hook } };
    },
    success: (res, { prepared }) => {
      expect(res.json.next_cursor).toBeNull();
      expect(res.json.data).toEqual([expect.objectContaining({ id: prepared.ref!.webhookId, form_id: prepared.ref!.formId, url: WEBHOOK_URL })]);
      // A list never holds a secret.
      expect(res.json.data[0]).not.toHaveProperty('secret');
      expect(res.body).not.toContain(prepared.ref!.secret);
    },
    expect: formsScope(200),
  },
  {
    route: 'GET /v1/forms/:form_id/webhooks/:webhook_id',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: webhookParams(hook), ref: { ...hook } };
    },
    success: (res, { prepared }) => {
      expect(res.json).toMatchObject({ id: prepared.ref!.webhookId, form_id: prepared.ref!.formId, enabled: true });
      expect(res.json).not.toHaveProperty('secret');
    },
    expect: formsScope(200),
  },
  {
    route: 'PATCH /v1/forms/:form_id/webhooks/:webhook_id',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: webhookParams(hook), body: { description: 'Renamed', enabled: false }, ref: { ...hook } };
    },
    success: (res, { prepared }) =>
      expect(res.json).toMatchObject({ id: prepared.ref!.webhookId, description: 'Renamed', enabled: false, disabled_reason: 'manual' }),
    expect: formsScope(200),
  },
  {
    route: 'DELETE /v1/forms/:form_id/webhooks/:webhook_id',
    prepare: async (w) => ({ params: webhookParams(await freshWebhook(w)) }),
    success: (res) => expect(res.body).toBe(''),
    expect: formsScope(204),
  },
  {
    // formMemberProcedure: a key, even W's, gets 403 session_required; an outsider does not see the form.
    route: 'GET /v1/forms/:form_id/webhooks/:webhook_id/secret',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: webhookParams(hook), ref: { ...hook } };
    },
    success: (res, { prepared }) => expect(res.json).toEqual({ secret: prepared.ref!.secret }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/rotate-secret',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: webhookParams(hook), ref: { ...hook } };
    },
    success: (res, { prepared }) => {
      expect(res.json.secret).toMatch(/^whsec_/);
      expect(res.json.secret).not.toBe(prepared.ref!.secret);
      expect(Date.parse(res.json.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    },
    expect: formsScope(201),
  },
  {
    // Rotated once: secret 1 still signs until it is ended.
    route: 'DELETE /v1/forms/:form_id/webhooks/:webhook_id/secrets/:secret_number',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      const rotated = await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/rotate-secret`, { token: w.key.key });
      if (rotated.status !== 201) throw new Error(`rotation failed: ${rotated.status} ${rotated.body}`);
      return { params: { ...webhookParams(hook), secret_number: '1' } };
    },
    success: (res) => expect(res.json.secrets).toEqual([{ number: 2, created_at: expect.any(String), expires_at: null, public_key: null }]),
    expect: formsScope(200),
  },
  {
    // The endpoint's name never resolves: the test event fails at once, and the route says so (still 200).
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/test',
    prepare: async (w) => ({ params: webhookParams(await freshWebhook(w)) }),
    success: (res) => {
      expect(res.json).toMatchObject({ status: 'failed', status_code: null, response_excerpt: null });
      expect(res.json.error).toEqual(expect.any(String));
    },
    expect: formsScope(200),
  },
  {
    // Deliveries carry submission values: members' sessions only, like reading submissions.
    route: 'GET /v1/forms/:form_id/webhooks/:webhook_id/deliveries',
    prepare: freshDelivery,
    success: (res, { prepared }) => {
      expect(res.json.next_cursor).toBeNull();
      expect(res.json.data).toEqual([
        expect.objectContaining({ id: prepared.ref!.deliveryId, type: 'submission.created', status: 'failed', event_id: expect.stringMatching(/^msg_/) }),
      ]);
      expect(res.json.data[0].payload.data.submission).toMatchObject({ id: prepared.ref!.submissionId, values: { email: 'hook@example.org' } });
    },
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    // The events `lfk listen` forwards carry submission values: members' sessions only.
    route: 'GET /v1/forms/:form_id/events',
    prepare: freshDelivery,
    // Without `after`, no events: the cursor of now.
    success: (res) => expect(res.json).toEqual({ data: [], cursor: expect.stringMatching(/^evc_\d+_sub_z{26}$/), has_more: false }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    // A recover resends submission values: members' sessions only, as retrying.
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/recover',
    prepare: async (w) => {
      const prepared = await freshDelivery(w);
      return { ...prepared, body: { since: new Date(Date.now() - 3_600_000).toISOString() } };
    },
    // The failed delivery's event is queued again.
    success: (res) => expect(res.json).toEqual({ queued: 1, already_waiting: 0, next_since: null, dry_run: false }),
    expect: workspaceMember(202, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/deliveries/:delivery_id/retry',
    prepare: freshDelivery,
    // A failed delivery is pending again, with the same event.
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.deliveryId, status: 'pending' }),
    expect: workspaceMember(202, '404 form_not_found'),
  },
  {
    // Dropping a delivery decides the fate of a submission's values: members' sessions only, as retrying.
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/deliveries/:delivery_id/discard',
    prepare: freshDelivery,
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.deliveryId, status: 'discarded', next_attempt_at: null }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
];
