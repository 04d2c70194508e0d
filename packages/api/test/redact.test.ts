import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../src/credentials/redact.ts';

describe('redactSecrets', () => {
  it('redacts each kind of secret, however written, and leaves names that merely contain a prefix', () => {
    const key = `lfk_${'a1B2'.repeat(9)}`;
    const whsec = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    expect(redactSecrets(`/v1/forms?k=${key}`)).toBe('/v1/forms?k=lfk_[redacted]');
    expect(redactSecrets(`x ${encodeURIComponent(whsec)} y`)).toBe('x whsec_[redacted] y');
    expect(redactSecrets('Alfc_a')).toBe('Alfc_a');
    expect(redactSecrets('field whsec_test')).toBe('field whsec_test');
  });
});
