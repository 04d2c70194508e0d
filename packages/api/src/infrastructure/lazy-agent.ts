import type { Agent, request } from 'undici';

/**
 * An undici connection pool to an outside service, made by its first call: undici (about 100
 * modules) is not loaded at start. Every connect, header and body wait is bounded by `timeoutMs`.
 */
export class LazyAgent {
  readonly #timeoutMs: number;
  #agent: Promise<Agent> | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** undici's `request`, and the pool to send it through. */
  async ready(): Promise<{ request: typeof request; agent: Agent }> {
    const timeout = this.#timeoutMs;
    this.#agent ??= import('undici').then(({ Agent }) => new Agent({ connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout }));
    const [undici, agent] = await Promise.all([import('undici'), this.#agent]);
    return { request: undici.request, agent };
  }

  async close(): Promise<void> {
    await (await this.#agent)?.close();
  }
}
