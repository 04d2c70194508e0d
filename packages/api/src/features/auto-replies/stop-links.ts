import type { SecretBox } from '../../credentials/secret-box.ts';

/** What a stop link's MAC is bound to: it proves nothing elsewhere. */
const CONTEXT = 'auto-reply-stop';
const PREFIX = 'lfu_';

/**
 * The link in each auto-reply that stops them: it names the workspace and the address, with lfk's
 * MAC over both, so it needs no row of its own and cannot be made for another address. Whoever
 * holds it can only stop that workspace's auto-replies to that address.
 */
export function stopToken(box: SecretBox, workspaceId: string, email: string): string {
  const payload = Buffer.from(`${workspaceId}\n${email}`).toString('base64url');
  return `${PREFIX}${payload}.${box.mac(payload, CONTEXT)}`;
}

export const stopUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/+$/, '')}/v1/auto-reply-stops/${token}`;

/** The workspace and the address a token names, when lfk made it; null for anything else. */
export function readStopToken(box: SecretBox, token: string): { workspaceId: string; email: string } | null {
  if (!token.startsWith(PREFIX) || token.length > 1000) return null;
  const [payload, mac, ...rest] = token.slice(PREFIX.length).split('.');
  if (!payload || !mac || rest.length > 0 || !box.verifyMac(payload, CONTEXT, mac)) return null;
  const [workspaceId, email, ...more] = Buffer.from(payload, 'base64url').toString('utf8').split('\n');
  return workspaceId && email && more.length === 0 ? { workspaceId, email } : null;
}
