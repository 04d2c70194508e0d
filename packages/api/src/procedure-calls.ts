import { getTRPCErrorFromUnknown, TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Context } from './context.ts';
import { appRouter } from './root.ts';
import type { ProcedurePath } from './rest-routes.ts';

/** What tRPC hands a middleware (`_def.middlewares`), as far as this runner must keep it. */
interface StepOptions {
  ctx: object;
  input: unknown;
  getRawInput: () => Promise<unknown>;
  path: string;
  type: string;
  signal: AbortSignal | undefined;
  batchIndex: number;
}
type StepResult = { ok: true; data: unknown; ctx: object; marker: string } | { ok: false; error: TRPCError; marker: string };
type NextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> };
type Step = ((options: StepOptions & { meta: unknown; next(next?: NextOptions): Promise<StepResult> }) => Promise<StepResult>) & {
  _type?: string;
};
interface ProcedureDef {
  type: string;
  meta: unknown;
  middlewares: Step[];
  inputs: z.ZodType[];
  output?: z.ZodType;
}

/** tRPC's mark on a middleware's result (its `middlewareMarker`); nothing of lfk's reads it. */
const MARKER = 'middlewareMarker';

/**
 * One step of the chain, as tRPC's own caller runs it (`callRecursive`): the middleware at `index`
 * gets the options, `meta` and a `next` that merges what it adds to the context and input; what
 * it throws becomes a failed result.
 */
async function step(steps: Step[], index: number, meta: unknown, options: StepOptions): Promise<StepResult> {
  const { ctx, input, getRawInput, path, type, signal, batchIndex } = options;
  try {
    // Written out rather than spread: an object of one shape at every step is what makes this cheap.
    return await steps[index]!({
      ctx,
      input,
      getRawInput,
      path,
      type,
      signal,
      batchIndex,
      meta,
      next(next) {
        return step(steps, index + 1, meta, {
          ctx: next?.ctx ? { ...ctx, ...next.ctx } : ctx,
          input: next && 'input' in next ? next.input : input,
          getRawInput: next?.getRawInput ?? getRawInput,
          path,
          type,
          signal,
          batchIndex,
        });
      },
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: MARKER };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * tRPC's input step (`createInputMiddleware`) with the schema's `parse` where tRPC calls
 * `parseAsync`: zod compiles a fast path for an object's shape that only a synchronous parse
 * takes (a form read's schemas: ~36 µs async, a fifth of that sync; issue 52). No lfk schema
 * refines or transforms asynchronously. Same input, same merge, same error.
 */
function inputStep(schema: z.ZodType): Step {
  return async ({ input, getRawInput, next }) => {
    let parsed: unknown;
    const raw = await getRawInput();
    try {
      parsed = schema.parse(raw);
    } catch (cause) {
      throw new TRPCError({ code: 'BAD_REQUEST', cause });
    }
    return next({ input: isObject(input) && isObject(parsed) ? { ...input, ...parsed } : parsed });
  };
}

/** tRPC's output step (`createOutputMiddleware`), parsing synchronously for the same reason. */
function outputStep(schema: z.ZodType): Step {
  return async ({ next }) => {
    const result = await next();
    if (!result.ok) return result;
    try {
      return { ...result, data: schema.parse(result.data) };
    } catch (cause) {
      throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
    }
  };
}

/** The procedure's own chain, its parsing steps built from its own schemas (`_def.inputs`, `_def.output`). */
function chainOf(definition: ProcedureDef): ProcedureDef {
  let inputs = 0;
  const middlewares = definition.middlewares.map((middleware) => {
    if (middleware._type === 'input') return inputStep(definition.inputs[inputs++]!);
    if (middleware._type === 'output') return outputStep(definition.output!);
    return middleware;
  });
  if (inputs !== definition.inputs.length) throw new Error('A procedure whose input steps do not match its inputs.');
  return { ...definition, middlewares };
}

const definitions = new Map<string, ProcedureDef>(
  Object.entries(appRouter._def.procedures).map(([path, procedure]) => [path, chainOf((procedure as unknown as { _def: ProcedureDef })._def)]),
);

/**
 * Calls the procedure at `path` (`forms.get`) as `createCaller(ctx).forms.get(input)` does: the
 * same middlewares, schemas and resolver, in the same order, from the procedure's own definition,
 * and the same error thrown. Only the runner is lfk's: tRPC's copies its options with a generic
 * object-spread helper at every step, which cost a key's form read ~55 µs of its ~550, and parses
 * asynchronously (above) (issue 52).
 * The REST transport calls procedures through this; the tRPC transport through tRPC. The tests of
 * each route run on both, so the two cannot drift apart unnoticed.
 */
export async function callProcedure(ctx: Context, path: ProcedurePath, input: unknown): Promise<unknown> {
  const definition = definitions.get(path);
  if (!definition) throw new Error(`No procedure ${path}.`);
  const result = await step(definition.middlewares, 0, definition.meta, {
    ctx,
    input: undefined,
    getRawInput: async () => input,
    path,
    type: definition.type,
    signal: undefined,
    batchIndex: 0,
  });
  if (!result.ok) throw result.error;
  return result.data;
}
