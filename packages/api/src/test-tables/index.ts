/**
 * The authorization matrix and the hostile-input tables, folded from the rows each feature declares
 * beside its procedures (`features/<f>/<f>.access-cases.ts`, `<f>.hostile-cases.ts`). Test-only:
 * exported as `@lfk/api/test-tables` (and their words as `…/access`, `…/hostile`) for the server's
 * suite, which runs them; nothing the package runs imports them. `test-tables.test.ts` says in
 * seconds which REST route has no row, and in which folder it goes.
 */
import type { AccessCase } from './access.ts';
import type { HostileCases } from './hostile.ts';
import { accessCases as authAccess } from '../features/auth/auth.access-cases.ts';
import { hostileCases as authHostile } from '../features/auth/auth.hostile-cases.ts';
import { accessCases as passwordResetsAccess } from '../features/password-resets/password-resets.access-cases.ts';
import { hostileCases as passwordResetsHostile } from '../features/password-resets/password-resets.hostile-cases.ts';
import { accessCases as sessionsAccess } from '../features/sessions/sessions.access-cases.ts';
import { accessCases as twoFactorAccess } from '../features/two-factor/two-factor.access-cases.ts';
import { hostileCases as twoFactorHostile } from '../features/two-factor/two-factor.hostile-cases.ts';
import { accessCases as keysAccess } from '../features/keys/keys.access-cases.ts';
import { hostileCases as keysHostile } from '../features/keys/keys.hostile-cases.ts';
import { accessCases as deviceSignInAccess } from '../features/device-sign-in/device-sign-in.access-cases.ts';
import { hostileCases as deviceSignInHostile } from '../features/device-sign-in/device-sign-in.hostile-cases.ts';
import { accessCases as workspacesAccess } from '../features/workspaces/workspaces.access-cases.ts';
import { hostileCases as workspacesHostile } from '../features/workspaces/workspaces.hostile-cases.ts';
import { accessCases as membersAccess } from '../features/members/members.access-cases.ts';
import { hostileCases as membersHostile } from '../features/members/members.hostile-cases.ts';
import { accessCases as invitationsAccess } from '../features/invitations/invitations.access-cases.ts';
import { hostileCases as invitationsHostile } from '../features/invitations/invitations.hostile-cases.ts';
import { accessCases as projectsAccess } from '../features/projects/projects.access-cases.ts';
import { hostileCases as projectsHostile } from '../features/projects/projects.hostile-cases.ts';
import { accessCases as auditAccess } from '../features/audit/audit.access-cases.ts';
import { accessCases as secretScanningAccess } from '../features/secret-scanning/secret-scanning.access-cases.ts';
import { accessCases as formsAccess } from '../features/forms/forms.access-cases.ts';
import { hostileCases as formsHostile } from '../features/forms/forms.hostile-cases.ts';
import { accessCases as inboxAccess } from '../features/inbox/inbox.access-cases.ts';
import { hostileCases as inboxHostile } from '../features/inbox/inbox.hostile-cases.ts';
import { accessCases as filesAccess } from '../features/files/files.access-cases.ts';
import { accessCases as publicFormsAccess } from '../features/public-forms/public-forms.access-cases.ts';
import { accessCases as draftsAccess } from '../features/drafts/drafts.access-cases.ts';
import { hostileCases as draftsHostile } from '../features/drafts/drafts.hostile-cases.ts';
import { accessCases as webhooksAccess } from '../features/webhooks/webhooks.access-cases.ts';
import { hostileCases as webhooksHostile } from '../features/webhooks/webhooks.hostile-cases.ts';
import { accessCases as emailVerificationAccess } from '../features/email-verification/email-verification.access-cases.ts';
import { accessCases as autoRepliesAccess } from '../features/auto-replies/auto-replies.access-cases.ts';

export interface FeatureCases {
  /** The folder under features/ that declares the feature's procedures and these rows. */
  folder: string;
  access: AccessCase[];
  hostile?: HostileCases;
}

/** The one list: a feature with REST routes adds its rows here, once. */
export const FEATURE_CASES: FeatureCases[] = [
  { folder: 'auth', access: authAccess, hostile: authHostile },
  { folder: 'password-resets', access: passwordResetsAccess, hostile: passwordResetsHostile },
  { folder: 'sessions', access: sessionsAccess },
  { folder: 'two-factor', access: twoFactorAccess, hostile: twoFactorHostile },
  { folder: 'keys', access: keysAccess, hostile: keysHostile },
  { folder: 'device-sign-in', access: deviceSignInAccess, hostile: deviceSignInHostile },
  { folder: 'workspaces', access: workspacesAccess, hostile: workspacesHostile },
  { folder: 'members', access: membersAccess, hostile: membersHostile },
  { folder: 'invitations', access: invitationsAccess, hostile: invitationsHostile },
  { folder: 'projects', access: projectsAccess, hostile: projectsHostile },
  { folder: 'audit', access: auditAccess },
  { folder: 'secret-scanning', access: secretScanningAccess },
  { folder: 'forms', access: formsAccess, hostile: formsHostile },
  { folder: 'inbox', access: inboxAccess, hostile: inboxHostile },
  { folder: 'files', access: filesAccess },
  { folder: 'public-forms', access: publicFormsAccess },
  { folder: 'drafts', access: draftsAccess, hostile: draftsHostile },
  { folder: 'webhooks', access: webhooksAccess, hostile: webhooksHostile },
  { folder: 'email-verification', access: emailVerificationAccess },
  { folder: 'auto-replies', access: autoRepliesAccess },
];

/** The authorization matrix: one row per REST route. */
export const MATRIX: AccessCase[] = FEATURE_CASES.flatMap((feature) => feature.access);

/** Every body route with a caller and a valid body, by its procedure. */
export const BODY_CASES: HostileCases = Object.assign({}, ...FEATURE_CASES.map((feature) => feature.hostile ?? {}));
