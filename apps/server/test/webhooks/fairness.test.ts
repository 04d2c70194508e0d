/**
 * Deliveries shared between workspaces: one workspace whose receivers never answer holds at most
 * its cap of deliveries in flight (LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE), and another workspace's
 * deliveries go on arriving, however many it queues.
 */
import { loadConfig } from '@lfk/server';
import { startReceiver, until, useTestServer } from '@lfk/server/testing';
import { expect, it } from 'vitest';
import { formWithWebhook, submitTo } from './fixtures.ts';

const PER_WORKSPACE = 3;
/** Deliveries the hanging workspace queues: as many as the replica has slots. */
const QUEUED = 40;
// A replica with as few slots as the hanging workspace queues deliveries, which without a cap would
// fill them all; attempts and their locks last as long as the test does, however loaded the machine.
const t = useTestServer(
  { LFK_WEBHOOK_ALLOW_PRIVATE: 'true', LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE: String(PER_WORKSPACE) },
  // A failed attempt is retried an hour later: out of the test's way.
  { webhooks: { pollMs: 50, timeoutMs: 600_000, lockMs: 600_000, concurrency: QUEUED, retryDelaysMs: [3_600_000] } },
);

it("a workspace whose receivers hang holds its cap in flight, and another workspace's delivery still arrives", async () => {
  const attacker = await t.signup();
  const other = await t.signup();
  const dead = await startReceiver();
  const live = await startReceiver();
  try {
    dead.answers.push(...Array.from({ length: QUEUED }, () => 'hang' as const));
    // Two forms with five endpoints each, all to the receiver that never answers, four submissions each.
    const forms: string[] = [];
    for (let i = 0; i < 2; i++) {
      const hook = await formWithWebhook(t, attacker, dead.url);
      for (let more = 0; more < 4; more++) {
        const added = await t.request('POST', `/v1/forms/${hook.formId}/webhooks`, { token: attacker.token, body: { url: dead.url } });
        expect(added.status, added.body).toBe(201);
      }
      forms.push(hook.formId);
    }
    for (const formId of forms) for (let n = 0; n < 4; n++) await submitTo(t, formId);
    await dead.waitFor(PER_WORKSPACE);

    const hook = await formWithWebhook(t, other, live.url);
    const submissionId = await submitTo(t, hook.formId);
    const [delivered] = await live.waitFor(1);
    expect(JSON.parse(delivered!.body).data.submission.id).toBe(submissionId);

    // The hanging workspace holds exactly its cap; the rest of its deliveries wait their turn.
    expect(dead.received.length).toBe(PER_WORKSPACE);
    const ofAttacker = `webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id join forms f on f.id = e.form_id
      where f.workspace_id = ? and d.status = 'pending'`;
    expect(await t.count(`${ofAttacker} and d.locked_until is not null`, [attacker.workspaceId])).toBe(PER_WORKSPACE);
    expect(await t.count(`${ofAttacker} and d.attempt_count = 0`, [attacker.workspaceId])).toBe(QUEUED - PER_WORKSPACE);
    // Set aside while their workspace is at its cap, out of every claim's way.
    expect(await t.count(`${ofAttacker} and d.waiting_for_room`, [attacker.workspaceId])).toBe(QUEUED - PER_WORKSPACE);

    // The receiver goes away: the hanging attempts fail, and what was set aside is attempted in its turn.
    await dead.close();
    const waiting = `${ofAttacker} and (d.waiting_for_room or d.locked_until is not null or jsonb_array_length(d.attempts) = 0)`;
    await until('every delivery of the hanging workspace attempted', async () => (await t.count(waiting, [attacker.workspaceId])) === 0);
    expect(await t.count(`${ofAttacker} and jsonb_array_length(d.attempts) = 1`, [attacker.workspaceId])).toBe(QUEUED);
  } finally {
    // The hanging attempts fail now (their connections are cut), so the server can stop.
    await dead.close();
    await live.close();
  }
});

it('takes the cap from LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE, 32 unless set, and refuses one under 1', () => {
  expect(loadConfig({}).webhookWorker.perWorkspace).toBe(32);
  expect(loadConfig({ LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE: '64' }).webhookWorker.perWorkspace).toBe(64);
  expect(() => loadConfig({ LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE: '0' })).toThrow(/LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE/);
});
