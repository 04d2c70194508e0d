import { plainRequest, requestJson } from './json-request.ts';
import { UnexpectedResponseError } from './unexpected-response.ts';
import { io } from '../terminal/io.ts';

export interface TransportOptions {
  /** When a request gives up (epoch ms), asked as each one starts: every attempt and retry ends by then. */
  deadline: () => number;
  /** Called when a request starts and ends, e.g. to show a spinner while it is slow. */
  onRequest?: () => () => void;
  /**
   * `file`: a successful answer may be of any type (an export's CSV) and its body may take as long
   * as it takes, once it has started; the deadline bounds the wait for the answer's headers, and
   * refusals must still be lfk's JSON. `json` (the default): JSON answers only, body and all by the deadline.
   */
  expect?: 'json' | 'file';
}

type Fetch = typeof globalThis.fetch;

/** Whether HTTP_PROXY or HTTPS_PROXY (either case) is set: requests then go through the proxy. */
export const proxyInUse = (env: NodeJS.ProcessEnv = io().env): boolean =>
  ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => (env[name] ?? '') !== '');

/** The first of `names` set in `env` (lower case first, as curl and undici read them), else none. */
const fromEnv = (env: NodeJS.ProcessEnv, ...names: string[]) => names.map((name) => env[name]).find((value) => value !== undefined) ?? '';

/**
 * Node's own fetch, unless a proxy is set (HTTP_PROXY / HTTPS_PROXY, with NO_PROXY): then undici's,
 * through its EnvHttpProxyAgent, which Node's fetch does not use before Node 24.5. Importing
 * undici costs more than the rest of a command, so it is only loaded when it is needed.
 */
async function proxiedFetch(deadline: () => number): Promise<Fetch> {
  const { EnvHttpProxyAgent, fetch } = await import('undici');
  const { env } = io();
  const dispatcher = new EnvHttpProxyAgent({
    // The run's environment (the process's own but in tests); '' is none, where undefined would read process.env.
    httpProxy: fromEnv(env, 'http_proxy', 'HTTP_PROXY'),
    httpsProxy: fromEnv(env, 'https_proxy', 'HTTPS_PROXY'),
    noProxy: fromEnv(env, 'no_proxy', 'NO_PROXY'),
    keepAliveTimeout: 10_000,
    connect: { timeout: Math.max(1, Math.min(deadline() - Date.now(), 10_000)) },
  });
  // undici's own types describe the same fetch as the global one, with a dispatcher besides.
  return ((input, init) => fetch(input as Parameters<typeof fetch>[0], { ...(init as Parameters<typeof fetch>[1]), dispatcher })) as Fetch;
}

/**
 * A fetch with the command's deadline on every attempt, that accepts JSON answers only. Without a
 * proxy, API calls go over node:http (json-request.ts); files, and answers that may be files, take fetch.
 */
export function createTransport(options: TransportOptions): Fetch {
  const proxied = proxyInUse();
  const base = proxied ? proxiedFetch(options.deadline) : undefined;
  const send = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const file = options.expect === 'file';
    const headersDue = new AbortController();
    const timer = file
      ? setTimeout(() => headersDue.abort(new DOMException('The operation timed out.', 'TimeoutError')), Math.max(1, options.deadline() - Date.now()))
      : undefined;
    const timeout = file ? headersDue.signal : AbortSignal.timeout(Math.max(1, options.deadline() - Date.now()));
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const done = options.onRequest?.();
    try {
      const response =
        base || file || !plainRequest(input, init)
          ? await ((await base) ?? globalThis.fetch)(input, { ...init, signal })
          : await requestJson(input as string | URL, { ...init, signal });
      clearTimeout(timer);
      const contentType = response.headers.get('content-type') ?? '';
      if (file && response.ok) return response;
      if (!/^application\/json\b/i.test(contentType)) {
        await response.body?.cancel();
        throw new UnexpectedResponseError(response.status, contentType);
      }
      // The deadline's signal stays on the response, so a server that stalls mid-body is cut off too.
      return response;
    } finally {
      clearTimeout(timer);
      done?.();
    }
  };
  return send as Fetch;
}
