import { MAX_ALLOWED_IPS } from '@lfk/vocabulary';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

// What a key's allowlist is made of, parsed by ipaddr.js (browser-safe, so the dashboard checks an
// entry as the server will), never by a hand-written pattern.

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

const BITS = { ipv4: 32, ipv6: 128 } as const;

/**
 * An address in its usual written form, judged as what it is: an IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`) is its IPv4 address. ipaddr.js alone would also take `127.1`, `0x7f.0.0.1`
 * and zones (`fe80::1%eth0`, an interface of one host): none is a client address or an entry.
 */
export function parseAddress(text: string): Address | null {
  if (text.includes('%')) return null;
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.parse(text);
  const hex = text.includes('.') ? withoutDottedQuad(text) : text;
  if (hex === null || !ipaddr.IPv6.isValid(hex)) return null;
  return ipaddr.process(hex);
}

/**
 * An IPv6 address whose last 32 bits are written as a dotted quad, with them in hex instead
 * (`64:ff9b::192.0.2.7` → `64:ff9b::c000:207`). ipaddr.js reads the old IPv4-compatible form
 * `::192.0.2.7` (how Node writes the peer `::c000:207`) as the mapped `::ffff:192.0.2.7`, which
 * would match an IPv4 entry; written in hex, every form means the address it names.
 */
function withoutDottedQuad(text: string): string | null {
  const colon = text.lastIndexOf(':');
  const quad = text.slice(colon + 1);
  if (colon === -1 || !ipaddr.IPv4.isValidFourPartDecimal(quad)) return null;
  const [a, b, c, d] = ipaddr.IPv4.parse(quad).octets as [number, number, number, number];
  return `${text.slice(0, colon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * One allowlist entry as stored: an address (`203.0.113.7`, `2001:db8::1`), or a CIDR range with
 * its host bits cleared (`203.0.113.9/24` → `203.0.113.0/24`). A range of one address is that
 * address; an IPv4-mapped IPv6 entry is its IPv4 form, as the addresses it is matched against
 * are. Null for anything else.
 */
export function normaliseAllowedIp(entry: string): string | null {
  const slash = entry.indexOf('/');
  const written = slash === -1 ? entry : entry.slice(0, slash);
  const address = parseAddress(written);
  if (address === null) return null;
  if (slash === -1) return address.toString();
  const bitsText = entry.slice(slash + 1);
  let bits = bitsText.length > 0 && bitsText.length <= 3 && [...bitsText].every((c) => c >= '0' && c <= '9') ? Number(bitsText) : Number.NaN;
  // `::ffff:10.0.0.0/104` became 10.0.0.0 above: its prefix loses the 96 bits of the mapping.
  if (address.kind() === 'ipv4' && written.includes(':')) bits -= 96;
  const full = BITS[address.kind()];
  if (!(bits >= 0 && bits <= full)) return null;
  if (bits === full) return address.toString();
  const network =
    address.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
  return `${network.toString()}/${bits}`;
}

/** A stored entry as a range to match: an address is a range of its own full length. */
export function rangeOf(entry: string): readonly [Address, number] {
  if (!entry.includes('/')) {
    const address = ipaddr.parse(entry);
    return [address, BITS[address.kind()]];
  }
  return ipaddr.parseCIDR(entry);
}

/**
 * An allowlist as given: 1 to 20 addresses or CIDR ranges, stored normalised (`2001:DB8::1` →
 * `2001:db8::1`, `203.0.113.9/24` → `203.0.113.0/24`, an IPv4-mapped address as its IPv4 form),
 * each once; null for anywhere. An empty list is refused rather than read as "anywhere".
 */
export const allowedIpsInput = z
  .array(
    z
      .string()
      .max(64, 'Must be at most 64 characters.')
      .transform((entry, ctx) => {
        const normalised = normaliseAllowedIp(entry);
        if (normalised === null) {
          ctx.addIssue({ code: 'custom', message: 'Must be an IPv4 or IPv6 address or CIDR range, such as 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32.' });
          return z.NEVER;
        }
        return normalised;
      }),
  )
  .min(1, 'Give at least one address or range; null allows any address.')
  .max(MAX_ALLOWED_IPS, `At most ${MAX_ALLOWED_IPS} addresses and ranges.`)
  .transform((entries) => [...new Set(entries)])
  .nullable()
  .describe(`Up to ${MAX_ALLOWED_IPS} IPv4 and IPv6 addresses and CIDR ranges the key may be used from; null for anywhere.`);
