import { lfkErrorOf } from '@lfk/client';
import type { CommandContext } from '../command-context.ts';
import { isTransient } from '../http/retry-policy.ts';

/** After losing the server, asked again after 1 s, 2 s, 4 s… up to this, each with jitter. */
const RECONNECT_MAX_MS = 30_000;

/** lfk's own answers that mean "come back later", not "no". */
const LATER = new Set(['unavailable', 'service_unavailable', 'rate_limited']);

/** The server away (down, restarting, unreachable) or asking to be asked later. */
function isWorthWaitingFor(error: unknown): boolean {
  const problem = lfkErrorOf(error);
  if (problem) return LATER.has(problem.code);
  return isTransient(error as { data?: unknown; cause?: unknown });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `poll` every `everyMs` until the process is stopped (`lfk submissions list --follow`, `lfk
 * listen`). A server that restarts, is briefly away, or answers 503 or 429 does not end the command:
 * it is asked again with exponential backoff, and the person is told once when it went away and
 * once when it is back. Any other error (a session that ended, a form deleted), or any error before
 * the server first answered, ends it.
 */
export async function keepWatching(ctx: CommandContext, everyMs: number, poll: () => Promise<void>): Promise<never> {
  const { out } = ctx;
  let failures = 0;
  let answered = false;
  for (;;) {
    try {
      await poll();
      answered = true;
    } catch (error) {
      // A server that never answered is a wrong address or a server not started: said at once.
      if (!answered || !isWorthWaitingFor(error)) throw error;
      failures++;
      if (failures === 1) {
        const { toCliError } = await import('../http/api-errors.ts');
        const reason = toCliError(error, ctx.settings.baseUrl, ctx.settings.timeoutMs).message;
        out.note(out.errorStyle.dim(`Lost ${ctx.settings.baseUrl} (${reason}); trying again until it is back (Ctrl-C to stop).`));
      }
      const ceiling = Math.min(RECONNECT_MAX_MS, 1000 * 2 ** (failures - 1));
      await sleep(ceiling / 2 + Math.random() * (ceiling / 2));
      continue;
    }
    if (failures > 0) out.note(out.errorStyle.dim(`Back in touch with ${ctx.settings.baseUrl}; watching again.`));
    failures = 0;
    await sleep(everyMs);
  }
}
