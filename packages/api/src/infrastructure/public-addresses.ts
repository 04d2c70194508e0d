import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether lfk may send a webhook to `address`: only a public unicast address. Loopback, private,
 * link-local (where cloud metadata services live), CGNAT, multicast, unique-local, reserved and
 * documentation ranges are refused, and so are IPv6 forms that carry an IPv4 address into one of
 * them (mapped addresses are judged as the IPv4 address they are; NAT64, 6to4 and Teredo are
 * refused outright). Decided by `ipaddr.js`'s range table, not a hand-written list.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  // IPv4-compatible IPv6 (`::a.b.c.d`, deprecated): the table calls it unicast, but it carries an
  // IPv4 address that may be private.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  return parsed.range() === 'unicast';
}

/** The address a URL's host names literally (`[::1]` → `::1`), or null for a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) !== 0 ? bare : null;
}
