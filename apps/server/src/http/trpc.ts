import { MAX_BATCH_CALLS } from '@lfk/vocabulary';
import { ApiError, type AppRouter, appRouter, asApiError, restRoutes } from '@lfk/api';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import { logFailure } from './errors.ts';
import type { ContextForRequest } from './request-context.ts';

/** The procedures a request calls: a batch (`?batch=1`) names them comma-separated in the path. */
function proceduresIn(url: string): string[] {
  const [path = '', query = ''] = url.split('?', 2);
  let procedures = path.replace(/^\/trpc\/?/, '');
  try {
    procedures = decodeURIComponent(procedures);
  } catch {
    // A path that does not decode is counted by the commas it has as sent.
  }
  return new URLSearchParams(query).get('batch') === '1' ? procedures.split(',') : [procedures];
}

/** Procedures whose answer is a file's bytes, streamed: their REST route serves them, /trpc cannot. */
const FILE_ROUTES = new Map(restRoutes.filter((r) => r.transport === 'export' || r.transport === 'file').map((r) => [r.procedure as string, r.path]));

/** The tRPC endpoint: the same procedures as `/v1`, for the typed client. */
export async function registerTrpc(app: FastifyInstance, contextFor: ContextForRequest): Promise<void> {
  await app.register(async (scope) => {
    // tRPC would take multipart and octet-stream bodies too; lfk's procedures take JSON only. Batches are capped.
    // Files are REST's.
    scope.addHook('onRequest', async (request) => {
      const type = request.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) throw new ApiError('unsupported_media_type');
      const procedures = proceduresIn(request.url);
      if (procedures.length > MAX_BATCH_CALLS) {
        throw new ApiError('batch_too_large', { message: `A batch holds at most ${MAX_BATCH_CALLS} calls; this one has ${procedures.length}.` });
      }
      // Refused before anything runs: a procedure that opens a file must not open it for nobody.
      const file = procedures.find((procedure) => FILE_ROUTES.has(procedure));
      if (file) {
        throw new ApiError('unsupported_media_type', {
          message: `This procedure answers a file, streamed: GET it from its REST route, ${FILE_ROUTES.get(file)!.replace(/:(\w+)/g, '{$1}')}.`,
        });
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
