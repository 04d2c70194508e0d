import { ApiKey } from './api-key.ts';
import { ApiKeyUsage } from './api-key-usage.ts';
import { AuditEvent } from './audit-event.ts';
import { AuthChallenge } from './auth-challenge.ts';
import { AutoReplyStop } from './auto-reply-stop.ts';
import { BaseEntity, UpdatableEntity } from './base.ts';
import { DeviceLogin } from './device-login.ts';
import { Draft } from './draft.ts';
import { EmailVerification } from './email-verification.ts';
import { Form } from './form.ts';
import { FormEvent } from './form-event.ts';
import { IdempotencyRecord } from './idempotency-record.ts';
import { Invitation } from './invitation.ts';
import { PasswordReset } from './password-reset.ts';
import { Passkey } from './passkey.ts';
import { Membership } from './membership.ts';
import { OutboxEmail } from './outbox-email.ts';
import { Project } from './project.ts';
import { RateLimitBucket } from './rate-limit-bucket.ts';
import { RecoveryCode } from './recovery-code.ts';
import { Session } from './session.ts';
import { ObjectDeletion } from './object-deletion.ts';
import { SpamLearning } from './spam-learning.ts';
import { Submission } from './submission.ts';
import { SubmissionFile } from './submission-file.ts';
import { User } from './user.ts';
import { WebhookDelivery } from './webhook-delivery.ts';
import { WebhookEndpoint } from './webhook-endpoint.ts';
import { Workspace } from './workspace.ts';

export * from './api-key.ts';
export * from './api-key-usage.ts';
export * from './audit-event.ts';
export * from './auth-challenge.ts';
export * from './auto-reply-stop.ts';
export * from './base.ts';
export * from './device-login.ts';
export * from './draft.ts';
export * from './email-verification.ts';
export * from './form.ts';
export * from './form-event.ts';
export * from './idempotency-record.ts';
export * from './invitation.ts';
export * from './password-reset.ts';
export * from './passkey.ts';
export * from './membership.ts';
export * from './outbox-email.ts';
export * from './project.ts';
export * from './rate-limit-bucket.ts';
export * from './recovery-code.ts';
export * from './session.ts';
export * from './object-deletion.ts';
export * from './spam-learning.ts';
export * from './submission.ts';
export * from './submission-file.ts';
export * from './user.ts';
export * from './webhook-delivery.ts';
export * from './webhook-endpoint.ts';
export * from './workspace.ts';

/** Listed explicitly: no glob discovery under ESM. */
export const entities = [
  BaseEntity,
  UpdatableEntity,
  User,
  Session,
  Workspace,
  Membership,
  Project,
  ApiKey,
  ApiKeyUsage,
  Form,
  FormEvent,
  AuditEvent,
  Submission,
  SubmissionFile,
  SpamLearning,
  ObjectDeletion,
  EmailVerification,
  OutboxEmail,
  IdempotencyRecord,
  RateLimitBucket,
  DeviceLogin,
  WebhookEndpoint,
  WebhookDelivery,
  PasswordReset,
  Invitation,
  AutoReplyStop,
  AuthChallenge,
  RecoveryCode,
  Passkey,
  Draft,
];
