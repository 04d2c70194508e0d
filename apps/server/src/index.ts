export { type Config, ConfigError, loadConfig, objectStorageOf, RATE_LIMITS_OFF } from './config.ts';
export { createServer, type LfkServer, type ServerOptions } from './server.ts';
export { backgroundSettings, type OutboxSenderOptions } from './server.ts';
