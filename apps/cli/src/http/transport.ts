import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';
import { UnexpectedResponseError } from './unexpected-response.ts';

export interface TransportOptions {
  /** When a request gives up (epoch ms), asked as each one starts: every attempt and retry ends by then. */
  deadline: () => number;
  /** Called when a request starts and ends, e.g. to show a spinner while it is slow. */
  onRequest?: () => () => void;
}

/**
 * A fetch on undici: one keep-alive connection pool for the whole command, proxies taken from
 * HTTP_PROXY / HTTPS_PROXY / NO_PROXY, and the command's deadline on every attempt.
 */
export function createTransport(options: TransportOptions): typeof globalThis.fetch {
  const dispatcher = new EnvHttpProxyAgent({
    keepAliveTimeout: 10_000,
    connect: { timeout: Math.max(1, Math.min(options.deadline() - Date.now(), 10_000)) },
  });
  const send = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const timeout = AbortSignal.timeout(Math.max(1, options.deadline() - Date.now()));
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const done = options.onRequest?.();
    try {
      // undici's own types describe the same fetch as the global one, with a dispatcher besides.
      const response = await undiciFetch(input as Parameters<typeof undiciFetch>[0], {
        ...(init as Parameters<typeof undiciFetch>[1]),
        signal,
        dispatcher,
      });
      const contentType = response.headers.get('content-type') ?? '';
      if (!/^application\/json\b/i.test(contentType)) {
        await response.body?.cancel();
        throw new UnexpectedResponseError(response.status, contentType);
      }
      // The deadline's signal stays on the response, so a server that stalls mid-body is cut off too.
      return response as unknown as Response;
    } finally {
      done?.();
    }
  };
  return send as typeof globalThis.fetch;
}
