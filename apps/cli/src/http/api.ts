import type { AppRouter } from '@lfk/api/client';
import type { TRPCClient } from '@trpc/client';
import packageJson from '../../package.json' with { type: 'json' };
import type { Settings } from '../config/settings.ts';

export type Api = TRPCClient<AppRouter>;

/**
 * A typed client on undici, retrying idempotent calls. Loaded only by commands that talk to the
 * server, so `lfk --help` and `lfk completion` never pay for undici and tRPC.
 */
export async function createApi(settings: Pick<Settings, 'baseUrl' | 'timeoutMs'>, token: string | undefined): Promise<Api> {
  const [{ createLfkClient }, { retryLink }, { createTransport }, policy] = await Promise.all([
    import('@lfk/api/client'),
    import('@trpc/client'),
    import('./transport.ts'),
    import('./retry-policy.ts'),
  ]);
  return createLfkClient({
    baseUrl: settings.baseUrl,
    token,
    fetch: createTransport({ timeoutMs: settings.timeoutMs }),
    userAgent: `lfk-cli/${packageJson.version} node/${process.versions.node}`,
    links: [
      retryLink<AppRouter>({
        retry: ({ op, error, attempts }) => attempts < policy.MAX_ATTEMPTS && policy.isIdempotent(op) && policy.isTransient(error),
        retryDelayMs: policy.retryDelayMs,
      }),
    ],
  });
}
