import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { isId, Workspace } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';

/**
 * Signed download links (`GET /v1/files/{token}`): a file's id, when the link expires, and an
 * HMAC of both under a key derived from `LFK_SECRET_KEY`. Nothing is stored per link: a link
 * works until it expires or its file is gone (a deleted submission's links die with it).
 */
export class FileLinks {
  readonly #key: Buffer;
  readonly #base: string;

  constructor(secretKey: Buffer, publicUrl: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'lfk file links', 32));
    this.#base = publicUrl.replace(/\/+$/, '');
  }

  /** A link to `fileId` that works until `expiresAt`. */
  url(fileId: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${this.#base}/v1/files/${fileId}.${expires}.${this.#sign(fileId, expires)}`;
  }

  /** The file a token names if it is well formed, signed by this server and not expired at `now`; null otherwise. */
  fileOf(token: string, now: Date): string | null {
    const [fileId, expiresText, signature, ...rest] = token.split('.');
    if (rest.length > 0 || !fileId || !expiresText || !signature || !isId('file', fileId) || !/^\d{1,12}$/.test(expiresText)) return null;
    const expires = Number(expiresText);
    const expected = Buffer.from(this.#sign(fileId, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return expires * 1000 > now.getTime() ? fileId : null;
  }

  #sign(fileId: string, expires: number): string {
    return createHmac('sha256', this.#key).update(`${fileId}.${expires}`).digest('base64url');
  }
}

/**
 * When links made now to a workspace's files expire: after its `file_link_ttl` when it sets one,
 * never later than the server's `LFK_FILE_LINK_TTL` (unclaimed forms have no workspace: the server's).
 */
export async function linkExpiry(em: EntityManager, workspaceId: string | null, serverTtlSeconds: number, now: Date): Promise<Date> {
  const own = workspaceId ? (await em.findOne(Workspace, workspaceId, { fields: ['fileLinkTtl'] }))?.fileLinkTtl : null;
  const ttl = Math.min(own ?? serverTtlSeconds, serverTtlSeconds);
  return new Date(now.getTime() + ttl * 1000);
}
