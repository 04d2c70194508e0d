import type { Database } from '@lfk/db';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export const health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

export const readiness = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    database: z.string().describe('The database engine: `pglite` (embedded) or `postgresql`.'),
  })
  .meta({ id: 'Readiness' });

/** `/healthz`: the process answers. `/readyz`: and its database does too (503 otherwise). */
export function registerHealth(app: FastifyInstance, db: Database): void {
  app.get('/healthz', async () => health.parse({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ready = await db.isReady();
    return reply.code(ready ? 200 : 503).send(readiness.parse({ status: ready ? 'ready' : 'unavailable', database: db.engine }));
  });
}
