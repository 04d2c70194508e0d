import { MAX_BATCH_CALLS } from '@lfk/vocabulary';
import { ApiError, type AppRouter, appRouter, asApiError } from '@lfk/api';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import { logFailure } from './errors.ts';
import type { ContextForRequest } from './request-context.ts';

/** How many calls a request makes: a batch (`?batch=1`) names its procedures comma-separated in the path. */
function callsIn(url: string): number {
  const [path = '', query = ''] = url.split('?', 2);
  if (new URLSearchParams(query).get('batch') !== '1') return 1;
  let procedures = path;
  try {
    procedures = decodeURIComponent(path);
  } catch {
    // A path that does not decode is counted by the commas it has as sent.
  }
  return procedures.split(',').length;
}

/** The tRPC endpoint: the same procedures as `/v1`, for the typed client. */
export async function registerTrpc(app: FastifyInstance, contextFor: ContextForRequest): Promise<void> {
  await app.register(async (scope) => {
    // tRPC would take multipart and octet-stream bodies too; lfk's procedures take JSON only. Batches are capped.
    scope.addHook('onRequest', async (request) => {
      const type = request.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) throw new ApiError('unsupported_media_type');
      const calls = callsIn(request.url);
      if (calls > MAX_BATCH_CALLS) {
        throw new ApiError('batch_too_large', { message: `A batch holds at most ${MAX_BATCH_CALLS} calls; this one has ${calls}.` });
      }
    });
    // An empty JSON body is no input, which the procedure's schema then refuses (400
    // invalid_request with details), as on REST: tRPC 11.22 would try to parse "" and call it
    // invalid JSON. A batch gets an empty object, so each of its calls has no input either.
    scope.addHook('preHandler', async (request) => {
      if (request.method === 'POST' && (request.body === undefined || (typeof request.body === 'string' && request.body.trim() === ''))) {
        request.body = '{}';
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
        const known = asApiError(error);
        if (!known || known.apiCode === 'service_unavailable') logFailure(error, req);
      },
      responseMeta({ errors }) {
        const headers = errors.map((e) => asApiError(e)?.headers).find((h) => h !== undefined);
        return headers ? { headers } : {};
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });
}
