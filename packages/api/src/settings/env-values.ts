import { z } from 'zod';

/** An empty variable (`LFK_X=`) is unset: its default applies. */
const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);

/** A variable read through `schema`, with an empty value taken as unset. */
export const variable = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUnset, schema);

/** `true`/`false` (also `1`/`0`, `yes`/`no`), `fallback` when unset. */
export const flag = (fallback: boolean) =>
  variable(
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => ['true', '1', 'yes'].includes(v)),
  );

/** A whole number from `min` to `max`, `fallback` when unset. */
export const wholeNumber = (min: number, max: number, fallback: number) => variable(z.coerce.number().int().min(min).max(max).default(fallback));

/** An http(s) URL, `fallback` when unset (a captcha provider's own; a local fake in tests). */
export const httpUrl = (fallback: string) => variable(z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL.' }).default(fallback));

/** An http(s) URL, or unset. */
export const optionalHttpUrl = () => variable(z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL.' }).optional());

/** A string of at most `max` characters, or unset. */
export const optionalText = (max: number) => variable(z.string().max(max).optional());
