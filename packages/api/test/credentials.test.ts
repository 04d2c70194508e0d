import { describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix } from '@lfk/vocabulary';
import { generateApiKey, isWellFormedApiKey } from '../src/credentials/api-key-format.ts';
import { sha256 } from '../src/credentials/secrets.ts';
import { generateClaimToken, generateSessionToken, isWellFormedSessionToken } from '../src/credentials/tokens.ts';

describe('API key format', () => {
  it('is lfk_ + 30 random base62 + a 6-character checksum, stored as sha256', () => {
    const { key, hash, prefix } = generateApiKey();
    expect(key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    expect(key).toHaveLength(40);
    expect(hash).toBe(sha256(key));
    expect(prefix).toBe(key.slice(0, 10));
    expect(apiKeyDisplayPrefix(key)).toBe(prefix);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('rejects any single-character change by its checksum', () => {
    const { key } = generateApiKey();
    let rejected = 0;
    for (let i = 4; i < key.length; i++) {
      const replacement = key[i] === 'a' ? 'b' : 'a';
      const changed = key.slice(0, i) + replacement + key.slice(i + 1);
      if (!isWellFormedApiKey(changed)) rejected++;
    }
    expect(rejected).toBe(key.length - 4);
  });

  it('rejects other shapes', () => {
    const { key } = generateApiKey();
    for (const bad of ['', 'lfk_', key.slice(0, -1), `${key}x`, key.replace('lfk_', 'lfs_'), ` ${key}`, key.toUpperCase()]) {
      expect(isWellFormedApiKey(bad), bad).toBe(false);
    }
  });

  it('never repeats and spreads characters evenly', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey().key));
    expect(keys.size).toBe(2000);
    const counts = new Map<string, number>();
    for (const key of keys) for (const c of key.slice(4, 34)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (2000 * 30) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.15);
  });
});

describe('session and claim tokens', () => {
  it('are prefixed, long and recognisable', () => {
    const session = generateSessionToken();
    expect(session.token).toMatch(/^lfs_[0-9A-Za-z]{43}$/);
    expect(session.hash).toBe(sha256(session.token));
    expect(isWellFormedSessionToken(session.token)).toBe(true);
    expect(isWellFormedSessionToken(`${session.token}x`)).toBe(false);
    expect(generateClaimToken().token).toMatch(/^lfc_[0-9A-Za-z]{43}$/);
  });
});
