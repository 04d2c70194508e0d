/** The part of a logger (pino's, fastify's) that background work in this package writes to. */
export interface Log {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
