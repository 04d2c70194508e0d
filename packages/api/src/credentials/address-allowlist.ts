import { type Address, parseAddress, rangeOf } from './allowed-ips-schemas.ts';

/**
 * Where a key may be used from: the addresses and ranges of its `allowed_ips`, parsed once (a
 * key's is cached with it). A client address is read as entries are (`parseAddress`), so
 * `::ffff:203.0.113.7` from a dual-stack socket matches `203.0.113.7`.
 */
export class AddressAllowlist {
  readonly #ranges: readonly (readonly [Address, number])[];

  private constructor(ranges: readonly (readonly [Address, number])[]) {
    this.#ranges = ranges;
  }

  /**
   * Null for a key without one: it may be used from anywhere, and checking costs nothing. An empty
   * list (the API refuses one; the database's check too) allows nowhere, never everywhere.
   */
  static of(entries: readonly string[] | null): AddressAllowlist | null {
    return entries === null ? null : new AddressAllowlist(entries.map(rangeOf));
  }

  allows(clientAddress: string): boolean {
    const address = parseAddress(clientAddress);
    if (address === null) return false;
    return this.#ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  }
}
