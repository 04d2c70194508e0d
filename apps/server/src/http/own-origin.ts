import type { FastifyRequest } from 'fastify';

/** The names a browser on this machine reaches it by. */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export type OwnOriginCheck = (origin: string, request: FastifyRequest) => boolean;

/**
 * Which `Origin`s the CSRF check takes as this server's own. `Host` (and `X-Forwarded-Host`) are
 * written by whoever sends the request, so they never decide it when `LFK_PUBLIC_URL` is set: that
 * origin is the only one. Without it (local development) the derived URL's origin is joined by the
 * origin a request was addressed to, but only when that names the loopback interface: a foreign
 * name pointed at 127.0.0.1 (DNS rebinding) is not believed.
 */
export function ownOriginCheck(publicUrl: string, publicUrlIsSet: boolean): OwnOriginCheck {
  const publicOrigin = new URL(publicUrl).origin;
  if (publicUrlIsSet) return (origin) => origin === publicOrigin;
  return (origin, request) => {
    if (origin === publicOrigin) return true;
    if (origin !== `${request.protocol}://${request.host}`) return false;
    return URL.canParse(origin) && LOOPBACK_HOSTNAMES.has(new URL(origin).hostname);
  };
}
