import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any;
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
}

/**
 * One exchange over a raw TCP connection, for what an HTTP client library would refuse to send
 * (no Host, a huge header, bytes trickling in). `talk` writes to the socket; the server's first
 * answer is read once the server closes the connection (or, failing that, after `giveUpMs`).
 */
export async function rawExchange(port: number, talk: (socket: Socket) => void | Promise<void>, giveUpMs = 60_000): Promise<RawResponse> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const started = Date.now();
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
  await talk(socket);
  await closed;
  clearTimeout(giveUp);
  const closedAfterMs = Date.now() - started;
  const headerEnd = received.indexOf('\r\n\r\n');
  if (headerEnd < 0) throw new Error(`no answer within ${closedAfterMs} ms: ${JSON.stringify(received)}`);
  const [statusLine, ...lines] = received.slice(0, headerEnd).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? received.length);
  const body = Buffer.from(received.slice(headerEnd + 4), 'latin1')
    .subarray(0, length)
    .toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body, json, closedAfterMs };
}
