import { ApiError, type AppRouter, appRouter, asApiError, type Services } from '@lfk/api';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import { contextForRequest } from './request-context.ts';

/** The tRPC endpoint: the same procedures as `/v1`, for the typed client. */
export async function registerTrpc(app: FastifyInstance, services: Services, publicUrl: string): Promise<void> {
  await app.register(async (scope) => {
    // tRPC would take multipart and octet-stream bodies too; lfk's procedures take JSON only.
    scope.addHook('onRequest', async (request) => {
      const type = request.headers['content-type'];
      if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) throw new ApiError('unsupported_media_type');
    });
    await registerTrpcPlugin(scope, services, publicUrl);
  });
}

async function registerTrpcPlugin(app: FastifyInstance, services: Services, publicUrl: string): Promise<void> {
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }) => contextForRequest(services, publicUrl, req, res),
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
