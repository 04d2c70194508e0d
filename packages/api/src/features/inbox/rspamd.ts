import type { Message } from '@lfk/spam-filter';
import { boundedText } from '../../infrastructure/bounded-text.ts';
import { LazyAgent } from '../../infrastructure/lazy-agent.ts';
import type { Log } from '../../log.ts';

/** What rspamd's `/checkv2` answers, as far as lfk reads it. */
export interface RspamdVerdict {
  score: number;
  requiredScore: number;
  action: string;
  /** Its symbols that scored, heaviest first. */
  symbols: string[];
}

export interface RspamdSettings {
  /** The controller worker (`/checkv2`, `/learnspam`, `/learnham`): `http://127.0.0.1:11334`. */
  url: string;
  password: string | undefined;
  timeoutMs: number;
}

/** rspamd's answer is a few kilobytes; more is not read. */
const ANSWER_MAX_BYTES = 256 * 1024;

/** One header line: no line breaks (no header of the visitor's own), and short. */
const headerValue = (text: string, max = 200) => text.replace(/[\r\n\t]+/g, ' ').slice(0, max);

/**
 * The submission as the plain mail rspamd reads: its sender as `From`, its first one-line answer as
 * the subject, every answer in the body. No header comes from the visitor but through `headerValue`.
 */
export function mailOf(message: Message): string {
  const sender = message.sender && /^[^\s<>@]+@[^\s<>@]+$/.test(message.sender) ? message.sender : 'visitor@lfk.invalid';
  const body = [...message.short, ...message.long].join('\r\n\r\n').replace(/\r?\n/g, '\r\n');
  return (
    `From: <${headerValue(sender, 254)}>\r\nTo: <form@lfk.invalid>\r\nSubject: ${headerValue(message.short[0] ?? '')}\r\n` +
    `MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`
  );
}

/**
 * rspamd, asked about every submission when `LFK_RSPAMD_URL` is set, and told of every mark. It is
 * an addition, never a dependency: unreachable, slow or answering nonsense, it is left out (the
 * content filter decides alone), said once when it goes and once when it is back.
 */
export class Rspamd {
  readonly #settings: RspamdSettings;
  readonly #log: Log;
  readonly #pool: LazyAgent;
  /** Since when it has failed; null while it answers. */
  #downSince: number | null = null;

  constructor(settings: RspamdSettings, log: Log) {
    this.#settings = settings;
    this.#log = log;
    this.#pool = new LazyAgent(settings.timeoutMs);
  }

  async #post(path: string, mail: string, ip?: string): Promise<{ status: number; text: string }> {
    const { request, agent } = await this.#pool.ready();
    const response = await request(new URL(path, this.#settings.url), {
      method: 'POST',
      headers: {
        'content-type': 'message/rfc822',
        ...(ip ? { ip } : {}),
        ...(this.#settings.password ? { password: this.#settings.password } : {}),
      },
      body: mail,
      dispatcher: agent,
      signal: AbortSignal.timeout(this.#settings.timeoutMs),
    });
    return { status: response.statusCode, text: await boundedText(response.body, ANSWER_MAX_BYTES) };
  }

  /** rspamd's verdict on the submission; null when it could not give one. */
  async check(message: Message, ip: string): Promise<RspamdVerdict | null> {
    try {
      const { status, text } = await this.#post('/checkv2', mailOf(message), ip);
      if (status !== 200) throw new Error(`answered ${status}`);
      const answer = JSON.parse(text) as { score?: unknown; required_score?: unknown; action?: unknown; symbols?: Record<string, { score?: unknown }> };
      if (typeof answer.score !== 'number' || typeof answer.required_score !== 'number' || typeof answer.action !== 'string') {
        throw new Error('answered without a score');
      }
      this.#answered();
      const symbols = Object.entries(answer.symbols ?? {})
        .filter(([, symbol]) => typeof symbol.score === 'number' && symbol.score > 0)
        .sort((a, b) => (b[1].score as number) - (a[1].score as number))
        .map(([name]) => name);
      return { score: answer.score, requiredScore: answer.required_score, action: answer.action, symbols };
    } catch (error) {
      this.#failed(error);
      return null;
    }
  }

  /** Tells rspamd's Bayes what a member marked. Its refusals (too few tokens, learned already) are its own. */
  async learn(message: Message, spam: boolean): Promise<void> {
    try {
      const { status, text } = await this.#post(spam ? '/learnspam' : '/learnham', mailOf(message));
      this.#answered();
      // 204 with a reason (too few words), or an error: said, as rspamd's own view of the mark.
      if (status !== 200) this.#log.warn({ status, answer: text.slice(0, 300) }, 'rspamd did not learn from a mark');
    } catch (error) {
      this.#failed(error);
    }
  }

  #answered(): void {
    if (this.#downSince === null) return;
    const seconds = Math.round((Date.now() - this.#downSince) / 100) / 10;
    this.#downSince = null;
    this.#log.warn({ down_for_s: seconds }, `rspamd answers again after ${seconds} s`);
  }

  #failed(error: unknown): void {
    if (this.#downSince !== null) return;
    this.#downSince = Date.now();
    const reason = error instanceof Error ? (error.name === 'TimeoutError' ? 'no answer in time' : error.message) : String(error);
    this.#log.error({ reason }, "rspamd unreachable: lfk's own content filter decides alone until it answers again");
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}
