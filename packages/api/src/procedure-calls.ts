import { getTRPCErrorFromUnknown, type TRPCError } from '@trpc/server';
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
type Step = (options: StepOptions & { meta: unknown; next(next?: NextOptions): Promise<StepResult> }) => Promise<StepResult>;
interface ProcedureDef {
  type: string;
  meta: unknown;
  middlewares: Step[];
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

const definitions = new Map<string, ProcedureDef>(
  Object.entries(appRouter._def.procedures).map(([path, procedure]) => [path, (procedure as unknown as { _def: ProcedureDef })._def]),
);

/**
 * Calls the procedure at `path` (`forms.get`) as `createCaller(ctx).forms.get(input)` does: the
 * same middlewares, parsers and resolver, in the same order, from the procedure's own definition,
 * and the same error thrown. Only the runner is lfk's: tRPC's copies its options with a generic
 * object-spread helper at every step, which cost a key's form read ~55 µs of its ~550 (issue 52).
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
