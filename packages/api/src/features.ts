import { kernelSettings } from './kernel-settings.ts';
import { rateLimitSettings } from './rate-limits/settings.ts';
import type { z } from 'zod';
import { type SettingsOf, settingsSchema, type UnionToIntersection } from './settings/settings-slice.ts';
import { auditFeature } from './features/audit/feature.ts';
import { authFeature } from './features/auth/feature.ts';
import { autoRepliesFeature } from './features/auto-replies/feature.ts';
import { deviceSignInFeature } from './features/device-sign-in/feature.ts';
import { draftsFeature } from './features/drafts/feature.ts';
import { emailVerificationFeature } from './features/email-verification/feature.ts';
import { filesFeature } from './features/files/feature.ts';
import { formsFeature } from './features/forms/feature.ts';
import { inboxFeature } from './features/inbox/feature.ts';
import { invitationsFeature } from './features/invitations/feature.ts';
import { keysFeature } from './features/keys/feature.ts';
import { membersFeature } from './features/members/feature.ts';
import { passwordResetsFeature } from './features/password-resets/feature.ts';
import { projectsFeature } from './features/projects/feature.ts';
import { publicFormsFeature } from './features/public-forms/feature.ts';
import { secretScanningFeature } from './features/secret-scanning/feature.ts';
import { twoFactorFeature } from './features/two-factor/feature.ts';
import { webhooksFeature } from './features/webhooks/feature.ts';
import { workspacesFeature } from './features/workspaces/feature.ts';

/**
 * Every feature of lfk, once. The root router, the services, the background tasks and the
 * environment schema are folds over this list. A feature's services may use those of the
 * features before it (the inbox's, forms'); its tasks stop before theirs.
 */
export const FEATURES = [
  authFeature,
  twoFactorFeature,
  passwordResetsFeature,
  deviceSignInFeature,
  workspacesFeature,
  membersFeature,
  invitationsFeature,
  projectsFeature,
  auditFeature,
  keysFeature,
  secretScanningFeature,
  formsFeature,
  inboxFeature,
  filesFeature,
  publicFormsFeature,
  draftsFeature,
  webhooksFeature,
  emailVerificationFeature,
  autoRepliesFeature,
] as const;

/** Every variable lfk's API reads, each declared by what reads it: the kernel, the rate limits, each feature. */
export const API_SETTINGS = [kernelSettings, rateLimitSettings, ...FEATURES.flatMap((feature) => (feature.settings ? [feature.settings] : []))];

/** Each feature's settings; a feature that reads no variable adds none (`object` would swallow the rest in a union). */
type SettingsOfFeature<F> = F extends { settings?: { read(...args: never[]): infer S } } ? (object extends S ? never : S) : never;
type FeatureSettings = SettingsOfFeature<(typeof FEATURES)[number]>;

/** The settings the API runs on: what `apiSettingsSchema` makes of the environment (tests change some). */
export type ApiSettings = SettingsOf<[typeof kernelSettings, typeof rateLimitSettings]> & UnionToIntersection<FeatureSettings>;

export const apiSettingsSchema = settingsSchema(API_SETTINGS) as unknown as z.ZodType<ApiSettings, Record<string, string | undefined>>;
