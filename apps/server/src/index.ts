export { RATE_LIMITS_OFF } from '@lfk/api';
export { type Config, ConfigError, loadConfig, objectStorageOf } from './config.ts';
export { createServer, type LfkServer, type ServerOptions } from './server.ts';
export type { OutboxSenderOptions } from './server.ts';
