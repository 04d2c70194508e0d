/**
 * Every host lfk must not or cannot send a webhook to gets one answer, whatever the resolver said:
 * a name that does not exist, one it never answers for, one that resolves to private addresses
 * only. The resolver is given here, since no machine's own can be made to hang or to answer a
 * chosen private address for a test; the server's suite uses the system's (test/webhooks).
 */
import type { LookupAddress, lookup as dnsLookup } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { NO_PUBLIC_ADDRESS, Outbound } from '../src/infrastructure/outbound-requests.ts';

type Answer = { error: string } | { addresses: string[] } | 'never';

/** A resolver that answers every name as told (or never). */
function resolverAnswering(answer: Answer): typeof dnsLookup {
  const lookup = (_host: string, _options: unknown, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => {
    if (answer === 'never') return;
    if ('error' in answer) return callback(Object.assign(new Error(`getaddrinfo ${answer.error}`), { code: answer.error }), []);
    callback(
      null,
      answer.addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  return lookup as unknown as typeof dnsLookup;
}

async function postWith(answer: Answer) {
  // The resolver's deadline is half the attempt's (2 s here): the attempt's own never comes first.
  const outbound = new Outbound({ allowPrivate: false, timeoutMs: 4_000, lookup: resolverAnswering(answer) });
  try {
    return await outbound.post('https://hooks.example.com/lfk', {}, '{}');
  } finally {
    await outbound.close();
  }
}

describe('a host with no public address', () => {
  it('is told alike when it does not exist, does not resolve in time, or resolves privately; only the log hears which', async () => {
    const results = {
      missing: await postWith({ error: 'ENOTFOUND' }),
      failing: await postWith({ error: 'EAI_AGAIN' }),
      silent: await postWith('never'),
      private: await postWith({ addresses: ['10.0.0.8', 'fd00::1'] }),
      metadata: await postWith({ addresses: ['169.254.169.254'] }),
    };
    for (const [which, result] of Object.entries(results)) {
      const { cause, ...answered } = result;
      expect(answered, which).toEqual({ error: NO_PUBLIC_ADDRESS, durationMs: 0 });
      expect(cause, which).toEqual(expect.any(String));
    }
    expect(results.missing.cause).toBe('ENOTFOUND');
    expect(results.silent.cause).toMatch(/no answer from the resolver within 2000 ms/);
    expect(results.private.cause).toBe('private addresses only: 10.0.0.8, fd00::1');
  });

  it('judges a URL by its text alone when an endpoint is added: a name, whatever it resolves to, is left to sending', () => {
    const outbound = new Outbound({ allowPrivate: false, lookup: resolverAnswering({ addresses: ['10.0.0.8'] }) });
    try {
      expect(outbound.refusal('https://hooks.example.com/lfk')).toBeNull();
      expect(outbound.refusal('https://metadata.google.internal/computeMetadata')).toBeNull();
      expect(outbound.refusal('https://10.0.0.8/hook')).toBe(
        'Must not be a private, loopback or link-local address (a server run for development or tests may allow it: LFK_WEBHOOK_ALLOW_PRIVATE=true).',
      );
      expect(outbound.refusal('https://localhost/hook')).toBe(
        'Must not be a private, loopback or link-local address (a server run for development or tests may allow it: LFK_WEBHOOK_ALLOW_PRIVATE=true).',
      );
      expect(outbound.refusal('http://hooks.example.com/lfk')).toBe(
        'Must be an https:// URL (a server run for development or tests may allow it: LFK_WEBHOOK_ALLOW_PRIVATE=true).',
      );
    } finally {
      void outbound.close();
    }
  });
});
