import type { AnyTRPCProcedure } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProcedureMeta } from '../src/procedure-meta.ts';
import { restRoutes } from '../src/rest-routes.ts';
import { appRouter } from '../src/root.ts';

const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;

/** The field names of an object schema. */
const fieldsOf = (schema: unknown): string[] => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);

describe('the REST table, derived from the procedures', () => {
  it('has a route for every procedure that declares one, and every procedure says who may call it', () => {
    const declared = Object.entries(procedures).filter(([, p]) => (p._def.meta as ProcedureMeta | undefined)?.rest);
    expect(restRoutes.map((r) => r.procedure)).toEqual(declared.map(([path]) => path));
    for (const [path, procedure] of Object.entries(procedures)) {
      expect((procedure._def.meta as ProcedureMeta | undefined)?.access, path).toBeDefined();
    }
  });

  it.each(restRoutes.map((r) => ({ route: `${r.method} ${r.path}`, r })))(
    "$route: a builder's input and the path's parameters are fields of the procedure's own input",
    ({ r }) => {
      const inputs = procedures[r.procedure]!._def.inputs;
      const own = fieldsOf(inputs.at(-1));
      for (const builders of inputs.slice(0, -1)) expect(own).toEqual(expect.arrayContaining(fieldsOf(builders)));
      const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      expect(own).toEqual(expect.arrayContaining(params));
    },
  );
});
