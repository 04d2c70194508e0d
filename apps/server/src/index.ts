export { type Config, ConfigError, loadConfig, RATE_LIMITS_OFF } from './config.ts';
export { createServer, type LfkServer, type ServerOptions } from './server.ts';
export type { OutboxSenderOptions } from './email/outbox-sender.ts';
