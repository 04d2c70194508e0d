/**
 * Retention, as a server runs it: by itself, every LFK_RETENTION_SWEEP_INTERVAL. What the sweep
 * deletes, its batches and replicas sweeping at once are packages/api/src/features/inbox/retention.test.ts's.
 */
import { startTestServer, until } from '@lfk/server/testing';
import { describe, it } from 'vitest';
import { inboxForm } from './fixtures.ts';

const DAY = 86_400_000;
const now = new Date('2026-11-25T12:00:00Z');

describe('the retention sweep', () => {
  it('runs by itself on the server, every LFK_RETENTION_SWEEP_INTERVAL', async () => {
    const sweeping = await startTestServer({}, { config: { now: () => now, retentionSweepMs: 50 } });
    try {
      const form = await inboxForm(sweeping, await sweeping.signup(), { retention_days: 1 });
      // Three submissions that arrived two days ago, written as the repository writes them.
      await sweeping.sql(
        `insert into submissions (id, form_id, data, source, status, created_at)
         select 'sub_' || lpad(to_hex(g), 26, '0'), ?, '{"name":"x"}', 'browser', 'ok', ? from generate_series(1, 3) g`,
        [form.id, new Date(now.getTime() - 2 * DAY)],
      );
      await until('the sweep', async () => (await sweeping.count('submissions where form_id = ?', [form.id])) === 0);
    } finally {
      await sweeping.close();
    }
  });
});
