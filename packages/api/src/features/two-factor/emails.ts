import type { OutgoingEmail } from '../../infrastructure/outbox.ts';

/** What changed among an account's second factors, as its email says it. */
export type FactorChange =
  | { kind: 'totp_enabled' }
  | { kind: 'totp_disabled' }
  | { kind: 'passkey_added'; name: string }
  | { kind: 'passkey_removed'; name: string }
  | { kind: 'recovery_codes_regenerated' }
  | { kind: 'recovery_code_used'; remaining: number };

const SUBJECT: Record<FactorChange['kind'], string> = {
  totp_enabled: 'An authenticator app was set up for your lfk account',
  totp_disabled: 'The authenticator app of your lfk account was turned off',
  passkey_added: 'A passkey was added to your lfk account',
  passkey_removed: 'A passkey was removed from your lfk account',
  recovery_codes_regenerated: 'New recovery codes were made for your lfk account',
  recovery_code_used: 'A recovery code was used to sign in to your lfk account',
};

function sentence(change: FactorChange, to: string): string {
  switch (change.kind) {
    case 'totp_enabled':
      return `An authenticator app was set up as a second factor of the lfk account ${to}: signing in now asks for one of its codes.`;
    case 'totp_disabled':
      return `The authenticator app of the lfk account ${to} was turned off: signing in no longer asks for its codes.`;
    case 'passkey_added':
      return `The passkey "${change.name}" was added to the lfk account ${to}: it signs in, and completes a sign-in with a password.`;
    case 'passkey_removed':
      return `The passkey "${change.name}" was removed from the lfk account ${to}: it signs in no more.`;
    case 'recovery_codes_regenerated':
      return `New recovery codes were made for the lfk account ${to}: the earlier ones work no more.`;
    case 'recovery_code_used':
      return `A recovery code was used to sign in to the lfk account ${to}. ${change.remaining} of its codes are left unused.`;
  }
}

export function factorChangedEmail(input: { to: string; change: FactorChange; at: Date; accountUrl: string }): OutgoingEmail {
  return {
    kind: 'two_factor_changed',
    to: input.to,
    subject: SUBJECT[input.change.kind],
    body: [
      `${sentence(input.change, input.to)} (${input.at.toISOString()})`,
      '',
      'If this was not you, reset your password from the sign-in page ("Forgot password?"), then review the security of your account:',
      '',
      input.accountUrl,
    ].join('\n'),
  };
}
