/**
 * GET and HEAD change nothing: link checkers, mail scanners and prefetching browsers send them
 * freely. So every GET route of the REST table (and the HEAD fastify derives from it) runs a query
 * procedure, never a mutation; tRPC tells them apart on the wire, answering GET for queries only.
 */
import { restRoutes } from '@lfk/api';
import { expect, it } from 'vitest';
import { useTestServer } from '@lfk/server/testing';

const t = useTestServer();

it.each(restRoutes.map((r) => ({ route: `${r.method} ${r.path}`, r })))(
  '$route runs a procedure that tRPC serves on the same kind of method',
  async ({ r }) => {
    // tRPC serves a query on GET and a mutation on POST; the other method is 404 not_found.
    const trpcMethod = r.method === 'GET' ? 'GET' : 'POST';
    const res = await t.request(trpcMethod, `/trpc/${r.procedure}`, trpcMethod === 'POST' ? { body: {} } : {});
    expect(res.status, res.body).not.toBe(404);
    expect(res.status, res.body).toBeLessThan(500);
  },
);
