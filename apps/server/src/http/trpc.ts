import { ApiError, type AppRouter, appRouter, asApiError } from '@lfk/api';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ContextForRequest } from './request-context.ts';

/**
 * The most calls one batch may hold. Each call is a procedure run, often a transaction, so an
 * unbounded batch lets one request (even an anonymous one) order any amount of work.
 */
export const MAX_BATCH_CALLS = 10;

/** How many calls a request makes: tRPC batches name their procedures comma-separated in the path. */
function callsIn(request: FastifyRequest): number {
  const url = new URL(request.url, 'http://trpc.invalid');
  if (url.searchParams.get('batch') !== '1') return 1;
  const paths = url.pathname.slice('/trpc/'.length);
  let decoded = paths;
  try {
    decoded = decodeURIComponent(paths);
  } catch {
    // Left as sent: tRPC refuses a path that does not decode, and raw commas still count.
  }
  return decoded.split(',').length;
}

/** The tRPC endpoint: the same procedures as `/v1`, for the typed client. */
export async function registerTrpc(app: FastifyInstance, contextFor: ContextForRequest): Promise<void> {
  await app.register(async (scope) => {
    // tRPC would take multipart and octet-stream bodies too; lfk's procedures take JSON only. Batches are capped.
    scope.addHook('onRequest', async (request) => {
      const type = request.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) throw new ApiError('unsupported_media_type');
      const calls = callsIn(request);
      if (calls > MAX_BATCH_CALLS) {
        throw new ApiError('batch_too_large', { message: `A batch holds at most ${MAX_BATCH_CALLS} calls; this one has ${calls}.` });
      }
    });
    await registerTrpcPlugin(scope, contextFor);
  });
}

async function registerTrpcPlugin(app: FastifyInstance, contextFor: ContextForRequest): Promise<void> {
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }) => contextFor(req, res),
      onError({ error, req }) {
        if (!asApiError(error)) req.log.error({ err: error }, 'unexpected error');
      },
      responseMeta({ errors }) {
        const headers = errors.map((e) => asApiError(e)?.headers).find((h) => h !== undefined);
        return headers ? { headers } : {};
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });
}
