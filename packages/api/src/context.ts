import type { Database } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { type Authentication, authenticate, type CredentialsOnRequest } from './credentials/authenticate.ts';
import type { LastUsedRecorder } from './credentials/last-used.ts';

/** What every request shares: built once at start by the server. */
export interface Services {
  db: Database;
  lastUsed: LastUsedRecorder;
  allowSignup: boolean;
}

/** How a procedure sets or clears the session cookie, whichever transport carried the call. */
export interface SessionCookieWriter {
  set(token: string, expiresAt: Date): void;
  clear(): void;
}

/** The inner context: no HTTP objects, so tests and server-side callers can build one too. */
export interface Context {
  em: EntityManager;
  services: Services;
  auth: Authentication;
  requestId: string;
  cookies: SessionCookieWriter;
}

export async function createContext(
  services: Services,
  request: CredentialsOnRequest & { requestId: string },
  cookies: SessionCookieWriter,
): Promise<Context> {
  const em = services.db.fork();
  const auth = await authenticate(em, request, services.lastUsed);
  return { em, services, auth, requestId: request.requestId, cookies };
}
