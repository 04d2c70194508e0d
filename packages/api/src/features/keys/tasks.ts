import type { Database, Subscription } from '@lfk/db';
import type { ApiKeyCache } from '../../credentials/api-key-cache.ts';
import { followKeyRevocations } from './revocation-listener.ts';
import type { KeyUseRecorder } from './key-uses.ts';
import type { Log } from '../../log.ts';
import type { BackgroundTask } from '../../infrastructure/background-task.ts';
import { periodic } from '../../infrastructure/periodic.ts';
import { sweepKeyLifecycle } from './lifecycle-sweep.ts';

/** The 'key-use buffer': key uses noted in memory, written every interval and once more when stopped. */
export function keyUseBuffer(keyUses: KeyUseRecorder): BackgroundTask {
  return { name: 'key-use buffer', start: () => keyUses.start(), stop: () => keyUses.stop() };
}

/** The 'revocation listener': keeps the key cache true to revocations made by other processes (PostgreSQL only). */
export function revocationListener(db: Database, cache: ApiKeyCache, log: Log): BackgroundTask {
  let subscription: Subscription | null = null;
  return {
    name: 'revocation listener',
    start() {
      subscription ??= followKeyRevocations(db, cache, log);
    },
    async stop() {
      await subscription?.close();
    },
  };
}

/** The 'key lifecycle sweep': expires keys past their date and queues expiry reminders (then wakes the mailer). */
export function keyLifecycleSweep(db: Database, now: () => Date, publicUrl: string, everyMs: number, wakeMailer: () => void, log: Log): BackgroundTask {
  return periodic(
    'key lifecycle sweep',
    'sweep expired API keys and expiry reminders',
    everyMs,
    async () => {
      const { reminded } = await sweepKeyLifecycle(db, now(), publicUrl);
      if (reminded.length > 0) wakeMailer();
    },
    log,
  );
}
