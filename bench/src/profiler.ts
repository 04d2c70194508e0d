import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { FromServer, ToServer } from './protocol.ts';

const session = new Session();

/**
 * Answers the profiler's messages (`profile-start`, `profile-stop`) for a server under test, lfk's
 * or a hand-written bound, so `npm run bench:profile` can profile either. False for other messages.
 */
export function answerProfiling(message: ToServer, send: (message: FromServer) => void): boolean {
  if (message.type === 'profile-start') {
    session.connect();
    session
      .post('Profiler.enable')
      .then(() => session.post('Profiler.start'))
      .then(() => send({ type: 'profiling' }));
    return true;
  }
  if (message.type === 'profile-stop') {
    session.post('Profiler.stop').then(({ profile }) => {
      writeFileSync(message.path, JSON.stringify(profile));
      session.disconnect();
      send({ type: 'profiled' });
    });
    return true;
  }
  return false;
}
