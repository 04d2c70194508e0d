import type { AppRouter, LfkClient, LfkCredentials } from '@lfk/client';
import packageJson from '../../package.json' with { type: 'json' };
import type { Settings } from '../config/settings.ts';

export type Api = LfkClient;

/** Less than this left before the deadline, another attempt would only time out. */
const LEAST_ATTEMPT_MS = 100;

/**
 * A typed client on fetch (transport.ts), retrying idempotent calls within one deadline: the
 * timeout bounds every request and retry made through this client together. A command that asks a
 * person something between two calls makes a client for each side, so time at a prompt never counts.
 * Loaded only by commands that talk to the server, so `lfk --help` never pays for tRPC.
 */
export async function createApi(
  settings: Pick<Settings, 'baseUrl' | 'timeoutMs'>,
  credentials: LfkCredentials,
  /** `request`: the timeout bounds each request (and its retries) alone, for commands that keep running. */
  timeoutBounds: 'client' | 'request' = 'client',
): Promise<Api> {
  const [{ createLfkClient }, { retryLink }, { createTransport }, policy, { slowRequestSpinner }] = await Promise.all([
    import('@lfk/client'),
    import('@trpc/client'),
    import('./transport.ts'),
    import('./retry-policy.ts'),
    import('../terminal/spinner.ts'),
  ]);
  const clientDeadline = Date.now() + settings.timeoutMs;
  const deadline = timeoutBounds === 'client' ? () => clientDeadline : () => Date.now() + settings.timeoutMs;
  const onRequest = slowRequestSpinner(`Waiting for ${new URL(settings.baseUrl).host}…`);
  const remaining = () => deadline() - Date.now();
  return createLfkClient({
    ...credentials,
    baseUrl: settings.baseUrl,
    fetch: createTransport({ deadline, ...(onRequest ? { onRequest } : {}) }),
    userAgent: `lfk-cli/${packageJson.version} node/${process.versions.node}`,
    links: [
      retryLink<AppRouter>({
        retry: ({ op, error, attempts }) =>
          attempts < policy.MAX_ATTEMPTS && policy.isIdempotent(op) && policy.isTransient(error) && remaining() > 2 * LEAST_ATTEMPT_MS,
        retryDelayMs: (attempt) => Math.max(0, Math.min(policy.retryDelayMs(attempt), remaining() - LEAST_ATTEMPT_MS)),
      }),
    ],
  });
}

/**
 * Fails with the network error now if the server cannot be reached: before asking a person for a
 * password twice, not after.
 */
export async function assertReachable(settings: Pick<Settings, 'baseUrl' | 'timeoutMs'>): Promise<void> {
  const [{ createTransport }, { toCliError }] = await Promise.all([import('./transport.ts'), import('./api-errors.ts')]);
  const deadline = Date.now() + settings.timeoutMs;
  const fetch = createTransport({ deadline: () => deadline });
  try {
    const response = await fetch(`${settings.baseUrl}/healthz`);
    await response.body?.cancel();
  } catch (error) {
    throw toCliError(error, settings.baseUrl, settings.timeoutMs);
  }
}

/**
 * A form's submissions as a file (`lfk submissions export`), streamed: the timeout bounds the wait
 * for the answer to start, never how long a large file takes to arrive.
 */
export async function exportFile(
  settings: Pick<Settings, 'baseUrl' | 'timeoutMs'>,
  sessionToken: string,
  formId: string,
  query: import('@lfk/client').LfkExportQuery,
): Promise<ReadableStream<Uint8Array>> {
  const [{ exportSubmissions }, { createTransport }] = await Promise.all([import('@lfk/client'), import('./transport.ts')]);
  const deadline = Date.now() + settings.timeoutMs;
  return exportSubmissions(
    {
      baseUrl: settings.baseUrl,
      sessionToken,
      fetch: createTransport({ deadline: () => deadline, expect: 'file' }),
      userAgent: `lfk-cli/${packageJson.version} node/${process.versions.node}`,
    },
    formId,
    query,
  );
}

/**
 * A submission with files (`lfk submissions create --file`), as multipart through `submitWithFiles`.
 * The timeout bounds the whole request, upload included. It carries an Idempotency-Key, so a request
 * that may not have arrived (a network failure, a proxy's 502/503/504) is sent again, as a create
 * through tRPC is, its files read from disk again.
 */
export async function submitFiles(
  settings: Pick<Settings, 'baseUrl' | 'timeoutMs'>,
  apiKey: string | undefined,
  formId: string,
  submission: import('@lfk/client').LfkSubmissionWithFiles & { idempotencyKey: string },
): Promise<import('@lfk/client').LfkCreatedSubmission> {
  const [{ submitWithFiles, LfkResponseError }, { createTransport }, policy, { slowRequestSpinner }] = await Promise.all([
    import('@lfk/client'),
    import('./transport.ts'),
    import('./retry-policy.ts'),
    import('../terminal/spinner.ts'),
  ]);
  const deadline = Date.now() + settings.timeoutMs;
  const remaining = () => deadline - Date.now();
  const onRequest = slowRequestSpinner(`Sending to ${new URL(settings.baseUrl).host}…`);
  const options = {
    baseUrl: settings.baseUrl,
    apiKey,
    fetch: createTransport({ deadline: () => deadline, ...(onRequest ? { onRequest } : {}) }),
    userAgent: `lfk-cli/${packageJson.version} node/${process.versions.node}`,
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await submitWithFiles(options, formId, submission);
    } catch (error) {
      const answered = error instanceof LfkResponseError;
      if (answered || attempt >= policy.MAX_ATTEMPTS || !policy.isTransient({ cause: error }) || remaining() <= 2 * LEAST_ATTEMPT_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(policy.retryDelayMs(attempt), remaining() - LEAST_ATTEMPT_MS))));
    }
  }
}

/**
 * One file of a submission (`lfk submissions download`), streamed: the timeout bounds the wait for
 * the answer to start, never how long a large file takes to arrive.
 */
export async function fetchFile(
  settings: Pick<Settings, 'baseUrl' | 'timeoutMs'>,
  sessionToken: string,
  request: import('@lfk/client').LfkFileRequest,
): Promise<import('@lfk/client').LfkFileDownload> {
  const [{ downloadFile }, { createTransport }] = await Promise.all([import('@lfk/client'), import('./transport.ts')]);
  const deadline = Date.now() + settings.timeoutMs;
  return downloadFile(
    {
      baseUrl: settings.baseUrl,
      sessionToken,
      fetch: createTransport({ deadline: () => deadline, expect: 'file' }),
      userAgent: `lfk-cli/${packageJson.version} node/${process.versions.node}`,
    },
    request,
  );
}
