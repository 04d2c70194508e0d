/**
 * The API's router and error codes, as types. In the repository they are `@lfk/api`'s own; the
 * build replaces this module's declarations with a self-contained copy (scripts/router-declarations.ts),
 * so the published package carries no server, database or ORM types.
 */
import type { AppRouter } from '@lfk/api';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';

export type { AppRouter, ErrorCode } from '@lfk/api';
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
