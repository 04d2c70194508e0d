// @20minutes/s3rver ships no types: the part of its API the test S3 server uses.
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverContext {
    path: string;
    state: Record<string, unknown>;
    mountPath?: string;
  }
  type Middleware = (ctx: S3rverContext, next: () => Promise<unknown>) => unknown;

  export default class S3rver {
    constructor(options: {
      address: string;
      port: number;
      directory: string;
      silent?: boolean;
      vhostBuckets?: boolean;
      configureBuckets?: { name: string }[];
    });
    store: {
      getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<unknown>;
    };
    /** Koa's middleware list: s3rver's own, the router last. */
    middleware: Middleware[];
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
