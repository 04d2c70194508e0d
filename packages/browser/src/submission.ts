/**
 * Sending a submission from a page, as the kit and `@lfk/react` both do: the values as lfk reads
 * them, one `Idempotency-Key` per attempt, and an `XMLHttpRequest` (fetch reports no upload
 * progress) that can be cancelled. No DOM beyond `FormData` and XHR: safe to import on a server.
 */
import { newKey } from './wire.ts';

export interface Answer {
  /** The HTTP status; 0 when no answer could be read (network, or a refused CORS grant), -1 when cancelled. */
  status: number;
  body: unknown;
  retryAfter: string | null;
}

/** The values as the JSON body lfk reads: a name sent more than once becomes a list, as in a plain post. */
export function jsonOf(data: FormData): string {
  const values: Record<string, string | string[]> = {};
  for (const [name, value] of data) {
    if (typeof value !== 'string') continue;
    const seen = values[name];
    values[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return JSON.stringify(values);
}

/** Whether the visitor chose a file (an empty file input sends an empty, nameless one). */
export const hasFile = (data: FormData) => [...data.values()].some((value) => typeof value !== 'string' && (value.size > 0 || value.name !== ''));

/**
 * The attempts of one form: the same values sent again (after a lost connection, a cancel or a
 * 5xx) keep their `Idempotency-Key`, so lfk stores them once; other values are a new attempt.
 */
export class Attempts {
  #fingerprint = '';
  #key = '';

  keyFor(data: FormData): string {
    const fingerprint = JSON.stringify([...data].map(([name, v]) => [name, typeof v === 'string' ? v : [v.name, v.size, v.lastModified]]));
    if (fingerprint !== this.#fingerprint || !this.#key) [this.#fingerprint, this.#key] = [fingerprint, newKey()];
    return this.#key;
  }

  /** A definite answer (a success, a 4xx): the next send is a new attempt. */
  settle(status: number): void {
    if (status >= 200 && status < 500) this.#key = '';
  }
}

export interface Sending {
  answer: Promise<Answer>;
  cancel(): void;
}

/** POSTs `data` to `url` (multipart with a file, JSON otherwise), reporting upload progress for a file. */
export function send(url: string, data: FormData, key: string, draft: string | null, onProgress?: (loaded: number, total: number) => void): Sending {
  const xhr = new XMLHttpRequest();
  const answer = new Promise<Answer>((resolve) => {
    const done = (status: number) => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      resolve({ status, body, retryAfter: status > 0 ? xhr.getResponseHeader('retry-after') : null });
    };
    xhr.onload = () => done(xhr.status);
    xhr.onerror = () => done(0);
    xhr.onabort = () => done(-1);
  });
  const files = hasFile(data);
  xhr.open('POST', url);
  xhr.setRequestHeader('accept', 'application/json');
  xhr.setRequestHeader('idempotency-key', key);
  if (draft) xhr.setRequestHeader('lfk-draft', draft);
  if (!files) xhr.setRequestHeader('content-type', 'application/json');
  else if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total);
  xhr.send(files ? data : jsonOf(data));
  return { answer, cancel: () => xhr.abort() };
}
