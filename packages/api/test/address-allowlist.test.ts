import { describe, expect, it } from 'vitest';
import { AddressAllowlist } from '../src/credentials/address-allowlist.ts';
import { allowedIpsInput, normaliseAllowedIp } from '../src/credentials/allowed-ips-schemas.ts';

describe('an allowlist entry, normalised (issue 28)', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['203.0.113.9/24', '203.0.113.0/24'],
    ['203.0.113.7/32', '203.0.113.7'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:0DB8:0000::0001', '2001:db8::1'],
    ['2001:db8::1/32', '2001:db8::/32'],
    ['::1/128', '::1'],
    ['::/0', '::/0'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.0/120', '203.0.113.0/24'],
    // The old IPv4-compatible form is the IPv6 address it names, not an IPv4 one.
    ['::192.0.2.7', '::c000:207'],
    ['64:ff9b::192.0.2.7/120', '64:ff9b::c000:200/120'],
  ])('%s is stored as %s', (entry, stored) => {
    expect(normaliseAllowedIp(entry)).toBe(stored);
  });

  it.each([
    '',
    'localhost',
    '127.1',
    '0x7f.0.0.1',
    '010.0.0.1',
    '256.1.1.1',
    ' 10.0.0.1',
    '10.0.0.1 ',
    'fe80::1%eth0',
    '::ffff:127.1',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/+8',
    '10.0.0.0/8/8',
    '2001:db8::/129',
    '1:2:3:4:5:6:7:8:9',
  ])('%j is refused', (entry) => {
    expect(normaliseAllowedIp(entry)).toBeNull();
  });

  it('a list is 1 to 20 entries, each kept once, and says which entry is wrong', () => {
    expect(allowedIpsInput.parse(['10.0.0.1', '10.0.0.1/32', '::ffff:10.0.0.1'])).toEqual(['10.0.0.1']);
    expect(allowedIpsInput.parse(null)).toBeNull();
    expect(allowedIpsInput.safeParse([]).error?.issues[0]?.message).toBe('Give at least one address or range; null allows any address.');
    expect(allowedIpsInput.safeParse(Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`)).success).toBe(false);
    const wrong = allowedIpsInput.safeParse(['10.0.0.1', 'example.com']);
    expect(wrong.error?.issues.map((issue) => issue.path)).toEqual([[1]]);
  });
});

describe('AddressAllowlist', () => {
  const allowlist = AddressAllowlist.of(['127.0.0.2', '10.0.0.0/8', '::1', '2001:db8::/32'])!;

  it('allows the addresses and ranges it names, an IPv4-mapped client as its IPv4 address', () => {
    for (const address of ['127.0.0.2', '::ffff:127.0.0.2', '10.255.0.1', '::1', '2001:db8:ffff::1']) expect(allowlist.allows(address), address).toBe(true);
  });

  it('refuses every other address, and anything that is not one', () => {
    // `::127.0.0.2` is how Node writes the IPv6 peer ::7f00:2: not 127.0.0.2.
    for (const address of ['127.0.0.1', '127.0.0.3', '11.0.0.1', '::2', '2001:db9::1', '::ffff:11.0.0.1', '::127.0.0.2', '', 'unknown', 'fe80::1%lo']) {
      expect(allowlist.allows(address), address).toBe(false);
    }
  });

  it('is nothing at all for a key without one: no list, no cost; an empty list allows nowhere', () => {
    expect(AddressAllowlist.of(null)).toBeNull();
    expect(AddressAllowlist.of([])!.allows('127.0.0.1')).toBe(false);
  });
});
