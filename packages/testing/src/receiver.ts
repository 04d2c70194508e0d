import type { IncomingHttpHeaders } from 'node:http';
import { startLocalHttp } from './local-http.ts';
import { until } from './wait.ts';

/** One request a receiver got: its path and query, its headers and its body exactly as sent. */
export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers the next request: a status (and body), never (it hangs), or by cutting the connection. */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang' | 'reset';

export interface Receiver {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  received: Received[];
  /** Answers in order, one per request; once they run out, 200. */
  answers: Answer[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that records every request and answers as told. */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    answers: [],
    waitFor: (count) => until(`${count} webhook requests`, () => (receiver.received.length >= count ? receiver.received : undefined)),
    close: async () => {},
  };
  const local = await startLocalHttp((req, body, res, hang) => {
    receiver.received.push({ url: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
    const answer = receiver.answers.shift() ?? { status: 200 };
    if (answer === 'hang') return hang();
    if (answer === 'reset') return req.socket.resetAndDestroy();
    res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? 'ok');
  });
  receiver.url = `${local.base}/hook`;
  receiver.close = local.close;
  return receiver;
}
