import type { FastifyRequest } from 'fastify';
import { header } from './request-context.ts';

/** Whether the request's `If-None-Match` names `etag` (weak or strong, alone or in a list): the caller already has these bytes. */
export function alreadyHas(request: FastifyRequest, etag: string): boolean {
  const known = header(request, 'if-none-match')?.split(',') ?? [];
  return known.some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
