export * from './constants.ts';
export * from './database.ts';
export * from './entities/index.ts';
export * from './ids.ts';
export * from './notifications.ts';
export * from './repositories/rate-limit-buckets.ts';
