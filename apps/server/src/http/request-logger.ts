import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger (`request.log`), which makes pino's child only when something is logged at a
 * level that is on. Making it serializes its bindings through the redaction, about 2 µs of a refused
 * key's 60; a server logging at `warn` or above (as the benchmark's) logs nothing for most requests.
 * At the default `info` every answered request logs its line, and the child is made anyway.
 */
class RequestLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  #made: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #child(): FastifyBaseLogger {
    this.#made ??= this.#parent.child(this.#bindings);
    return this.#made;
  }

  #log(level: Level, args: unknown[]): void {
    const logger = (this.#made ?? this.#parent) as FastifyBaseLogger & { isLevelEnabled?(level: Level): boolean };
    if (logger.isLevelEnabled?.(level) !== false) (this.#child()[level] as (...args: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.#made ?? this.#parent).level;
  }

  set level(level: string) {
    this.#child().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#log('error', args);
  }

  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }

  info(...args: unknown[]): void {
    this.#log('info', args);
  }

  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#child().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a lazy child, unless the route sets options of its own (a log level). */
export function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return Object.keys(options).length > 0 ? logger.child(bindings, options) : new RequestLogger(logger, bindings);
}
