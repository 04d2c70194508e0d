import type { Res } from '@lfk/testing';
import { expect } from 'vitest';
import type { TestServer } from './server.ts';

/** Posting submissions the ways clients do, and reading what was stored. */

export const FORM_URLENCODED = 'application/x-www-form-urlencoded';
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
/** A submission `createContactForm`'s form takes. */
export const VALID = { name: 'Ada', email: 'ada@example.com' };

export interface PostOptions {
  origin?: string;
  /** The client's address, read from X-Forwarded-For by a server that trusts its proxy. */
  ip?: string;
  token?: string;
  headers?: Record<string, string>;
}

function headersOf(options: PostOptions): Record<string, string> {
  return {
    ...(options.origin !== undefined ? { origin: options.origin } : {}),
    ...(options.ip !== undefined ? { 'x-forwarded-for': options.ip } : {}),
    ...options.headers,
  };
}

/** `POST /v1/forms/{id}/submissions` with a JSON body. */
export function submit(server: TestServer, formId: string, body: unknown, options: PostOptions = {}): Promise<Res> {
  return server.request('POST', `/v1/forms/${formId}/submissions`, {
    body,
    headers: headersOf(options),
    ...(options.token ? { token: options.token } : {}),
  });
}

/** A plain HTML `<form method="post">` as a browser sends it: urlencoded, wanting a page back. */
export function postHtmlForm(server: TestServer, formId: string, fields: string, options: PostOptions = {}): Promise<Res> {
  return server.request('POST', `/v1/forms/${formId}/submissions`, {
    raw: fields,
    headers: { 'content-type': FORM_URLENCODED, accept: BROWSER_ACCEPT, ...headersOf(options) },
    ...(options.token ? { token: options.token } : {}),
  });
}

/** `POST /trpc/submissions.create`. */
export function submitOverTrpc(server: TestServer, formId: string, data: unknown, options: PostOptions = {}): Promise<Res> {
  return server.request('POST', '/trpc/submissions.create', {
    body: { form_id: formId, data },
    headers: headersOf(options),
    ...(options.token ? { token: options.token } : {}),
  });
}

export function expectCreated(res: Res, formId: string): void {
  expect(res.status, res.body.slice(0, 400)).toBe(201);
  expect(res.json.form_id).toBe(formId);
  expect(res.json.id).toMatch(/^sub_/);
}

export function countSubmissions(server: TestServer, formId: string): Promise<number> {
  return server.count('submissions where form_id = ?', [formId]);
}

/** One part of a multipart body: a value, or a file with the name and type a browser would send. */
export type Part = { name: string; value: string } | { name: string; file: Buffer | string; filename: string; type?: string };

/** A `multipart/form-data` body as a browser or `curl -F` writes it: its bytes, and its content type with the boundary. */
export async function multipartBody(parts: readonly Part[]): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.name, part.value);
    else
      form.append(
        part.name,
        new Blob([typeof part.file === 'string' ? part.file : new Uint8Array(part.file)], { type: part.type ?? 'application/octet-stream' }),
        part.filename,
      );
  }
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type')! };
}

/** `POST /v1/forms/{id}/submissions` with a multipart body. */
export async function submitMultipart(server: TestServer, formId: string, parts: readonly Part[], options: PostOptions = {}): Promise<Res> {
  const { body, type } = await multipartBody(parts);
  return server.request('POST', `/v1/forms/${formId}/submissions`, {
    raw: body,
    headers: { 'content-type': type, ...headersOf(options) },
    ...(options.token ? { token: options.token } : {}),
  });
}

/** How many objects the server's file storage holds. */
export async function storedObjects(server: TestServer): Promise<number> {
  let n = 0;
  for await (const _ of server.server.services.files.storage.list()) n += 1;
  return n;
}
