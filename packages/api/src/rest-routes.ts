import type { AnyTRPCProcedure } from '@trpc/server';
import { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import type { Access, ProcedureMeta, RestMeta } from './procedure-meta.ts';
import { appRouter, type RouterInputs } from './root.ts';

export type ProcedurePath = {
  [R in keyof RouterInputs]: `${R & string}.${keyof RouterInputs[R] & string}`;
}[keyof RouterInputs];

/** A `/v1` route: its procedure's `rest` meta, and what the procedure itself says of its input, output and access. */
export interface RestRoute extends Omit<RestMeta, 'body'> {
  procedure: ProcedurePath;
  access: Access;
  /** Where the rest of the input comes from besides the path. */
  from: 'body' | 'query' | 'none';
  /** What the route documents as its input: the body as documented, or else the procedure's own input. */
  input: z.ZodType | null;
  output: z.ZodType | null;
  /** What its builder and the procedure can refuse with (besides input validation and the transport's own). */
  errors: ErrorCode[];
  /** Whether an `Idempotency-Key` is honoured. */
  idempotent: boolean;
}

/** tRPC keeps a procedure's `.output()` schema on its definition, though it types only the inputs. */
type ProcedureDef = AnyTRPCProcedure['_def'] & { meta?: ProcedureMeta; output?: z.ZodType };

/** Input fields beyond the path's come from a GET's query string or any other method's body; with none, neither is read. */
function sourceOf(rest: RestMeta, input: z.ZodType | null): RestRoute['from'] {
  const params = [...rest.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const pathOnly = input instanceof z.ZodObject && Object.keys(input.shape).every((field) => params.includes(field));
  if (input === null || pathOnly) return 'none';
  return rest.method === 'GET' ? 'query' : 'body';
}

function routeOf(path: string, procedure: AnyTRPCProcedure): RestRoute[] {
  const def = procedure._def as ProcedureDef;
  const { rest, access, accessErrors = [], errors = [], idempotent = false, sudo, withoutRequiredTwoFactor } = def.meta ?? {};
  if (!rest) return [];
  if (!access) throw new Error(`${path} has a REST route but was not built by one of trpc.ts's procedure builders.`);
  const { body, ...http } = rest;
  // A builder's input (`workspace_id`, `form_id`) is part of the procedure's own, which comes last.
  const ownInput = (def.inputs.at(-1) as z.ZodType | undefined) ?? null;
  const from = sourceOf(rest, ownInput);
  return [
    {
      ...http,
      procedure: path as ProcedurePath,
      access,
      from,
      input: body ?? ownInput,
      output: def.output ?? null,
      // What the builder answers, as its meta says: one open to a member without the second factor
      // their workspace requires never answers `two_factor_required`.
      errors: [...new Set([...accessErrors, ...errors, ...(sudo ? ['reauthentication_required' as const] : [])])].filter(
        (code) => !(withoutRequiredTwoFactor && code === 'two_factor_required'),
      ),
      idempotent,
    },
  ];
}

// Every procedure by its dotted path (`apiKeys.create`), in the routers' order; tRPC types it as the nested record.
const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;

/** The `/v1` REST API: each route is one procedure, reached through a server-side caller. */
export const restRoutes: RestRoute[] = Object.entries(procedures).flatMap(([path, procedure]) => routeOf(path, procedure));
