import type { LfkClientOptions } from './client.ts';
import { LfkResponseError } from './errors.ts';
import type { RouterInputs } from './router.ts';

/** What an export may ask for: the file's format and the list's filters (`form_id` is the call's own argument). */
export type LfkExportQuery = Omit<RouterInputs['submissions']['export'], 'form_id'>;

/**
 * A form's submissions as a file (CSV or JSON Lines), from `GET /v1/forms/{form_id}/submissions/export`:
 * the answer's body, streamed as the server reads the rows, so a file of any size is written as it
 * comes. Members' sessions only. lfk's refusals throw an `LfkResponseError` (read it with
 * `lfkErrorOf`), before any byte of the file.
 */
export async function exportSubmissions(
  options: Pick<LfkClientOptions, 'baseUrl' | 'sessionToken' | 'fetch' | 'userAgent'>,
  formId: string,
  query: LfkExportQuery = {},
): Promise<ReadableStream<Uint8Array>> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v1/forms/${encodeURIComponent(formId)}/submissions/export?${params}`;
  const headers: Record<string, string> = {};
  if (options.sessionToken) headers.authorization = `Bearer ${options.sessionToken}`;
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  const response = await (options.fetch ?? globalThis.fetch)(url, { headers });
  if (!response.ok || !response.body) throw await LfkResponseError.from(response);
  return response.body;
}
