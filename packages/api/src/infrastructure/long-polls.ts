import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The pauses of requests that wait for something to happen (a long poll), all cut short when the
 * server stops: shutdown waits for requests in flight, and must not wait out a poll.
 */
export class LongPolls {
  readonly #stopping = new AbortController();

  /** The server is stopping: a poll answers with what it has. */
  get stopping(): boolean {
    return this.#stopping.signal.aborted;
  }

  /** Resolves after `ms`, or at once when the server stops. */
  async pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.#stopping.signal }).catch(() => {});
  }

  stop(): void {
    this.#stopping.abort();
  }
}
