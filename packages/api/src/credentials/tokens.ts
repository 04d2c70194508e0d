import { randomBase62, sha256 } from './secrets.ts';

/** Session tokens (`lfs_`) and claim tokens (`lfc_`): 43 base62 characters, about 256 bits. */
export const SESSION_TOKEN_PREFIX = 'lfs_';
export const CLAIM_TOKEN_PREFIX = 'lfc_';
const TOKEN_LENGTH = 43;

export interface NewToken {
  token: string;
  hash: string;
}

function generate(prefix: string): NewToken {
  const token = prefix + randomBase62(TOKEN_LENGTH);
  return { token, hash: sha256(token) };
}

export const generateSessionToken = (): NewToken => generate(SESSION_TOKEN_PREFIX);
export const generateClaimToken = (): NewToken => generate(CLAIM_TOKEN_PREFIX);

const SESSION_SHAPE = /^lfs_[0-9A-Za-z]{43}$/;
export const isWellFormedSessionToken = (candidate: string): boolean => SESSION_SHAPE.test(candidate);
