import type { IncomingMessage } from 'node:http';
import { text } from 'node:stream/consumers';

/**
 * Whether a fetch call can go through `requestJson`: a string body or none, and headers as a plain
 * object (what tRPC's client sends). Anything else (a file's stream, form data) takes Node's fetch.
 */
export function plainRequest(input: string | URL | Request, init: RequestInit | undefined): boolean {
  const headers = init?.headers;
  const plainHeaders = headers === undefined || Object.getPrototypeOf(headers) === Object.prototype;
  return (typeof input === 'string' || input instanceof URL) && plainHeaders && (init?.body === undefined || typeof init.body === 'string');
}

/**
 * One call over node:http(s), answered as the part of a fetch Response that tRPC's client, lfk's
 * client and this transport read: status, ok, headers.get, json, text and body.cancel. Node's own
 * fetch compiles undici on its first use, which costs a short command more than its call to the
 * server; node:http is already in Node's start-up snapshot. The signal bounds the answer's body too.
 */
export async function requestJson(input: string | URL, init: RequestInit & { signal: AbortSignal }): Promise<Response> {
  const url = new URL(input);
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const answer = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = request(url, { method: init.method ?? 'GET', headers: init.headers as Record<string, string> | undefined, signal: init.signal }, resolve);
    sent.on('error', reject);
    sent.end(init.body as string | undefined);
  });
  let body: Promise<string> | undefined;
  const read = () => {
    body ??= text(answer);
    return body;
  };
  const status = answer.statusCode ?? 0;
  const response = {
    status,
    ok: status >= 200 && status < 300,
    statusText: answer.statusMessage ?? '',
    url: url.href,
    headers: {
      get(name: string): string | null {
        const value = answer.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: read,
    json: async () => JSON.parse(await read()),
    body: {
      cancel: async () => {
        answer.destroy();
      },
    },
  };
  return response as unknown as Response;
}
