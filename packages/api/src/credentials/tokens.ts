import { randomBase62, sha256 } from './secrets.ts';

/**
 * Session tokens (`lfs_`), claim tokens (`lfc_`), email verification tokens (`lfv_`), device
 * codes (`lfd_`, a CLI's pending sign-in), password reset tokens (`lfr_`), invitation tokens
 * (`lfi_`), sign-in challenges waiting for a second factor (`lfm_`) and a draft's resume token
 * (`lfp_`, the page's hold on a partial submission): 43 base62 characters,
 * about 256 bits.
 */
export const SESSION_TOKEN_PREFIX = 'lfs_';
export const CLAIM_TOKEN_PREFIX = 'lfc_';
export const VERIFICATION_TOKEN_PREFIX = 'lfv_';
export const DEVICE_CODE_PREFIX = 'lfd_';
export const PASSWORD_RESET_TOKEN_PREFIX = 'lfr_';
export const INVITATION_TOKEN_PREFIX = 'lfi_';
export const CHALLENGE_TOKEN_PREFIX = 'lfm_';
export const RESUME_TOKEN_PREFIX = 'lfp_';
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
export const generateVerificationToken = (): NewToken => generate(VERIFICATION_TOKEN_PREFIX);
export const generateDeviceCode = (): NewToken => generate(DEVICE_CODE_PREFIX);
export const generatePasswordResetToken = (): NewToken => generate(PASSWORD_RESET_TOKEN_PREFIX);
export const generateInvitationToken = (): NewToken => generate(INVITATION_TOKEN_PREFIX);
export const generateChallengeToken = (): NewToken => generate(CHALLENGE_TOKEN_PREFIX);
export const generateResumeToken = (): NewToken => generate(RESUME_TOKEN_PREFIX);

const shape = (prefix: string) => new RegExp(`^${prefix}[0-9A-Za-z]{${TOKEN_LENGTH}}$`);
const SESSION_SHAPE = shape(SESSION_TOKEN_PREFIX);
const CLAIM_SHAPE = shape(CLAIM_TOKEN_PREFIX);
const VERIFICATION_SHAPE = shape(VERIFICATION_TOKEN_PREFIX);
const DEVICE_CODE_SHAPE = shape(DEVICE_CODE_PREFIX);
const PASSWORD_RESET_SHAPE = shape(PASSWORD_RESET_TOKEN_PREFIX);
const INVITATION_SHAPE = shape(INVITATION_TOKEN_PREFIX);
const CHALLENGE_SHAPE = shape(CHALLENGE_TOKEN_PREFIX);
const RESUME_SHAPE = shape(RESUME_TOKEN_PREFIX);
export const isWellFormedSessionToken = (candidate: string): boolean => SESSION_SHAPE.test(candidate);
export const isWellFormedClaimToken = (candidate: string): boolean => CLAIM_SHAPE.test(candidate);
export const isWellFormedVerificationToken = (candidate: string): boolean => VERIFICATION_SHAPE.test(candidate);
export const isWellFormedDeviceCode = (candidate: string): boolean => DEVICE_CODE_SHAPE.test(candidate);
export const isWellFormedPasswordResetToken = (candidate: string): boolean => PASSWORD_RESET_SHAPE.test(candidate);
export const isWellFormedInvitationToken = (candidate: string): boolean => INVITATION_SHAPE.test(candidate);
export const isWellFormedChallengeToken = (candidate: string): boolean => CHALLENGE_SHAPE.test(candidate);
export const isWellFormedResumeToken = (candidate: string): boolean => RESUME_SHAPE.test(candidate);
