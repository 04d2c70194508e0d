import type { AppRouter } from '@lfk/client';
import type { TRPCLink } from '@trpc/client';
import { observable, type Unsubscribable } from '@trpc/server/observable';
import { problemOf } from './problems.ts';

/**
 * Sudo mode, the dashboard's one rule for it: what the server refuses with `403
 * reauthentication_required` (a key made, a secret read, a second factor changed, an export…) is
 * not a failure to show. The person is asked to confirm it's them, in place (the dialog of
 * components/reauthenticate-dialog.tsx), and the very call they made is sent again, once: they
 * never do it twice. Cancelled, the call fails with the refusal, which `problemOf` words.
 */

/** Shows the question; resolves true once the person has confirmed (the server is in sudo mode again), false if they did not. */
type Ask = () => Promise<boolean>;

let ask: Ask | null = null;
/** The question being asked: calls refused at once (a batch, two tabs' worth of clicks) share one answer. */
let asking: Promise<boolean> | null = null;

/** The dialog that asks registers here while it is mounted; the returned function unregisters it. */
export function onReauthenticationNeeded(handler: Ask): () => void {
  ask = handler;
  return () => {
    if (ask === handler) ask = null;
  };
}

/** Asks the person to confirm it's them (once for every call waiting on it); false when nobody can ask, or they declined. */
export function confirmIdentity(): Promise<boolean> {
  if (!ask) return Promise.resolve(false);
  asking ??= ask().finally(() => {
    asking = null;
  });
  return asking;
}

/** Whether the server refused the call until its person confirms who they are. */
export const needsReauthentication = (error: unknown): boolean => problemOf(error).code === 'reauthentication_required';

/** For a call outside tRPC (the export's download): asked and sent again once, as the link below does for tRPC's. */
export async function withReauthentication<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!needsReauthentication(error) || !(await confirmIdentity())) throw error;
    return call();
  }
}

/**
 * The tRPC link of the rule: a call refused for sudo mode waits for the person's answer, then goes
 * again (once; a second refusal is passed on). Before the batching link, so each call is its own.
 */
export const reauthenticationLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) => {
      let current: Unsubscribable | null = null;
      let stopped = false;
      const attempt = (isRetry: boolean) => {
        current = next(op).subscribe({
          next: (value) => observer.next(value),
          complete: () => observer.complete(),
          error: (error) => {
            if (isRetry || !needsReauthentication(error)) {
              observer.error(error);
              return;
            }
            void confirmIdentity().then((confirmed) => {
              if (stopped) return;
              if (confirmed) attempt(true);
              else observer.error(error);
            });
          },
        });
      };
      attempt(false);
      return () => {
        stopped = true;
        current?.unsubscribe();
      };
    });
