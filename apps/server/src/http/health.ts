import { DATABASE_RETRY_AFTER_S, type DatabaseOutage } from '@lfk/api';
import type { Database } from '@lfk/db';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export const health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

export const readiness = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    database: z.string().describe('The database engine: `pglite` (embedded) or `postgresql`.'),
    unavailable_since: z
      .string()
      .optional()
      .describe(
        'While the database is unavailable: when this process first found it so (ISO 8601). Requests that need it answer 503 `service_unavailable` meanwhile.',
      ),
  })
  .meta({ id: 'Readiness' });

/**
 * `/healthz`: the process answers. `/readyz`: and its database does too, within 2 s (503 with
 * `Retry-After` otherwise, and since when, if requests have been failing on it).
 */
export function registerHealth(app: FastifyInstance, db: Database, outage: DatabaseOutage): void {
  app.get('/healthz', async () => health.parse({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (await db.isReady()) return readiness.parse({ status: 'ready', database: db.engine });
    const since = outage.current?.since;
    return reply
      .code(503)
      .header('retry-after', String(DATABASE_RETRY_AFTER_S))
      .send(readiness.parse({ status: 'unavailable', database: db.engine, ...(since ? { unavailable_since: since.toISOString() } : {}) }));
  });
}
