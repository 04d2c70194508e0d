import type { TestServer } from './server.ts';
import { until } from './wait.ts';

/** Without SMTP the server prints its mail to the log: the verification link sent to `to` is read from there. */
export function verificationTokenSentTo(t: TestServer, to: string): Promise<string> {
  return until(`a verification email to ${to}`, () => {
    for (const line of t.logs) {
      const email = JSON.parse(line).email;
      if (email?.to === to && email.kind === 'verification') return /lfv_[0-9A-Za-z]+/.exec(email.text)![0];
    }
    return undefined;
  });
}
