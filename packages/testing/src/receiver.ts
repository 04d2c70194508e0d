import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './wait.ts';

/** One request a receiver got: its headers and its body exactly as sent. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers the next request: a status (and body), never (it hangs), or by cutting the connection. */
export type Answer = { status: number; body?: string } | 'hang' | 'reset';

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
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received: [],
    answers: [],
    waitFor: (count) => until(`${count} webhook requests`, () => (receiver.received.length >= count ? receiver.received : undefined)),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = receiver.answers.shift() ?? { status: 200 };
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (answer === 'reset') {
        req.socket.resetAndDestroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
