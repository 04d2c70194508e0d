import { ApiError, type AppRouter, appRouter, asApiError } from '@lfk/api';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import type { ContextForRequest } from './request-context.ts';

/** The tRPC endpoint: the same procedures as `/v1`, for the typed client. */
export async function registerTrpc(app: FastifyInstance, contextFor: ContextForRequest): Promise<void> {
  await app.register(async (scope) => {
    // tRPC would take multipart and octet-stream bodies too; lfk's procedures take JSON only.
    scope.addHook('onRequest', async (request) => {
      const type = request.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) throw new ApiError('unsupported_media_type');
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
