import { z } from 'zod';
import { timestamp } from '../../common-schemas.ts';

export const activeSession = z
  .object({
    id: z.string(),
    created_at: timestamp,
    last_seen_at: timestamp.nullable().describe('When it was last used (written at most every 5 minutes).'),
    ip: z.string().nullable().describe('The address it was last used from.'),
    user_agent: z.string().nullable().describe('The `User-Agent` it was last used with.'),
    device: z.string().nullable().describe('That `User-Agent` in words: the browser and the system ("Chrome 131 on macOS"), or the program.'),
    current: z.boolean().describe('Whether it is the session this request came with.'),
  })
  .meta({ id: 'ActiveSession' });
export const activeSessionList = z.object({ data: z.array(activeSession) }).meta({ id: 'ActiveSessionList' });
export const sessionIdInput = z.object({ session_id: z.string() });
export const sessionsRevoked = z.object({ revoked: z.int().describe('How many sessions were signed out.') }).meta({ id: 'SessionsRevoked' });
