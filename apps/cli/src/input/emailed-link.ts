import { usageError } from '../errors.ts';

/**
 * The token of a link pasted whole (`https://…/invitations/lfi_…`) or alone, from the email
 * `sentIn` names ("an invitation email"); a usage error when it holds none.
 */
export function tokenOfLink(linkOrToken: string, prefix: 'lfr_' | 'lfi_', sentIn: string): string {
  const found = new RegExp(`${prefix}[0-9A-Za-z]+`).exec(linkOrToken);
  if (!found) throw usageError('invalid_link', `That is not a link from ${sentIn}: it holds no ${prefix}… token.`);
  return found[0];
}
