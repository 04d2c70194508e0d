import { z } from 'zod';

const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);
const flag = z.preprocess(
  emptyAsUnset,
  z.enum(['true', 'false', '1', '0', 'yes', 'no']).default('true').transform((v) => ['true', '1', 'yes'].includes(v)),
);

const envSchema = z.object({
  PORT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUnset, z.string().default('127.0.0.1')),
  LFK_DATA_DIR: z.preprocess(emptyAsUnset, z.string().default('./.lfk/data')),
  DATABASE_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^postgres(ql)?$/, error: 'Must be a postgres:// URL.' }).optional()),
  LFK_PUBLIC_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL.' }).optional()),
  LFK_ALLOW_SIGNUP: flag,
  LOG_LEVEL: z.preprocess(emptyAsUnset, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
});

export interface Config {
  port: number;
  host: string;
  /** PGlite data directory, or `memory://`; unused when `databaseUrl` is set. */
  dataDir: string;
  databaseUrl: string | undefined;
  /** Where people reach this server; the base of links and the origin cookies belong to. */
  publicUrl: string;
  allowSignup: boolean;
  logLevel: string;
  /** How often API keys' `last_used_at` is written, in milliseconds. */
  lastUsedFlushMs: number;
}

export class ConfigError extends Error {}

/** Parses the environment once, at start; nothing else reads `process.env`. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.LFK_DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.LFK_PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/+$/, ''),
    allowSignup: e.LFK_ALLOW_SIGNUP,
    logLevel: e.LOG_LEVEL,
    lastUsedFlushMs: 5000,
  };
}
