import { z } from 'zod';

/**
 * What one part of lfk reads from the environment: its variables (each declared here once, with
 * its default and its checks), and the settings it makes of them. A variable's documentation is
 * its row in docs/reference/settings.md (a test keeps the two alike).
 */
export interface SettingsSlice<Env extends z.ZodRawShape = z.ZodRawShape, Out extends object = object> {
  env: Env;
  read(env: z.output<z.ZodObject<Env>>): Out;
  /** Checks across this slice's variables, or across slices (`env` holds every variable). */
  check?(env: z.output<z.ZodObject<Env>> & Record<string, unknown>, ctx: z.RefinementCtx): void;
}

export function settingsSlice<Env extends z.ZodRawShape, Out extends object>(slice: SettingsSlice<Env, Out>): SettingsSlice<Env, Out> {
  return slice;
}

export type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

// biome-ignore lint/suspicious/noExplicitAny: a list of slices of any shape
type AnySlice = SettingsSlice<any, any>;

/** The settings a list of slices makes: every slice's, side by side. */
export type SettingsOf<Slices extends readonly AnySlice[]> = UnionToIntersection<ReturnType<Slices[number]['read']>>;

/** The environment schema of a list of slices: their variables in one object, read into their settings. */
export function settingsSchema<const Slices extends readonly AnySlice[]>(slices: Slices) {
  const declared = slices.flatMap((slice) => Object.keys(slice.env));
  const twice = declared.filter((name, i) => declared.indexOf(name) !== i);
  // A variable has one home: a second slice declaring it would silently replace the first's checks.
  if (twice.length > 0) throw new Error(`Declared by two settings slices: ${[...new Set(twice)].join(', ')}`);
  return z
    .object(Object.assign({}, ...slices.map((slice) => slice.env)) as z.ZodRawShape)
    .superRefine((env, ctx) => {
      for (const slice of slices) slice.check?.(env, ctx);
    })
    .transform((env) => Object.assign({}, ...slices.map((slice) => slice.read(env))) as SettingsOf<Slices>);
}
