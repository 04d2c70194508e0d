import type { RouterOutputs } from '@lfk/client';
import { KEY_STOP_WORDS, MAX_ACTIVE_KEYS } from '@lfk/vocabulary';
import type { ReactNode } from 'react';
import type { Problem } from '../../api/problems.ts';
import { Time } from '../../components/time.tsx';

export type ApiKey = RouterOutputs['apiKeys']['list']['data'][number];

/** How a key is named in sentences and buttons: “deploy bot” (lfk_Ab12Cd…), or its prefix alone. */
export function keyLabel(key: Pick<ApiKey, 'name' | 'prefix'>): string {
  return key.name ? `“${key.name}” (${key.prefix}…)` : `${key.prefix}…`;
}

/** The key's state in a word (a badge), then when it stopped or when it will stop on its own. */
export function KeyStatus({ apiKey }: { apiKey: ApiKey }) {
  if (apiKey.status === 'revoked') {
    const reason = apiKey.revoked_reason ?? 'revoked';
    const words = KEY_STOP_WORDS[reason];
    return (
      <>
        <span className={`badge badge-revoked badge-${reason}`}>{words.badge}</span>{' '}
        <span className="muted">
          {words.why} {apiKey.revoked_at && <Time iso={apiKey.revoked_at} />}
        </span>
      </>
    );
  }
  return (
    <>
      <span className="badge badge-active">Active</span>
      {apiKey.rolled_to && apiKey.expires_at && (
        <span className="muted">
          {' '}
          replaced; stops working <Time iso={apiKey.expires_at} />
        </span>
      )}
    </>
  );
}

/**
 * Is anything still using it? Today's refused requests: a stopped key "still tried 3 times today"
 * (something was not moved to its replacement), a working one refused from addresses not allowed.
 */
export function TriedToday({ apiKey }: { apiKey: ApiKey }) {
  const refused = apiKey.uses_today.refused;
  if (refused === 0) return null;
  const times = `${refused.toLocaleString('en')} ${refused === 1 ? 'time' : 'times'}`;
  return <span className="tried-today">{apiKey.status === 'revoked' ? `still tried ${times} today` : `refused ${times} today`}</span>;
}

/** Where a key may be used from, in words. */
export const allowedFrom = (apiKey: Pick<ApiKey, 'allowed_ips'>) => (apiKey.allowed_ips ? apiKey.allowed_ips.join(', ') : 'Any address');

/** When an active key stops on its own; a stopped key's column stays empty (its status says it). */
export function KeyExpiry({ apiKey }: { apiKey: ApiKey }) {
  if (apiKey.status === 'revoked') return <span className="muted">—</span>;
  return <Time iso={apiKey.expires_at} never="Never" />;
}

/** Where the key was last used from: its address and program, as the server saw them. */
export function LastUsed({ apiKey }: { apiKey: ApiKey }) {
  const from = [apiKey.last_used_ip, apiKey.last_used_user_agent].filter(Boolean).join(' · ');
  return (
    <>
      <Time iso={apiKey.last_used_at} never="Never" />
      {from && (
        <>
          <br />
          <span className="muted where-from">{from}</span>
        </>
      )}
    </>
  );
}

/** The key errors an owner can act on, with what to do; other errors keep their generic advice. */
export function explainKeyProblem(problem: Problem): ReactNode {
  switch (problem.code) {
    case 'api_key_limit_reached':
      return (
        <>
          A workspace can hold {MAX_ACTIVE_KEYS} active keys at once, and this one has {MAX_ACTIVE_KEYS}. A key in its grace period after a roll still counts.
          Revoke a key you no longer use (its row has a Revoke button), or roll with no grace period, which replaces the key in place.
        </>
      );
    case 'api_key_revoked':
      return <>This key has already stopped working, so there is nothing to replace. Create a new key instead.</>;
    case 'api_key_already_rolled':
      return (
        <>
          This key was already rolled and is in its grace period: its replacement exists. Roll the new key instead, or revoke this one to end the grace period
          now.
        </>
      );
    default:
      return undefined;
  }
}
