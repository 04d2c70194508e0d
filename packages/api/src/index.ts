export type { Log } from './log.ts';
export { type KeyCheckOutcome, type KeyCheckSource, type Metrics, NO_METRICS, type WebhookAttemptOutcome } from './metrics.ts';
export {
  type BrowserAnswer,
  type CallerFacts,
  callerContext,
  type CheckedCredentials,
  checkCredentials,
  type Context,
  contextOf,
  type RequestFacts,
  type ResponseHeaders,
  type Services,
  type SessionCookieWriter,
} from './context.ts';
export { generateApiKey, isWellFormedApiKey } from './credentials/api-key-format.ts';
export { type Authentication, INVALID_API_KEY, refusal, SESSION_TTL_MS } from './credentials/authenticate.ts';
export type { Principal } from './credentials/principal.ts';
export { ApiKeyCache, type ApiKeyCacheOptions } from './credentials/api-key-cache.ts';
export { followKeyRevocations } from './features/keys/revocation-listener.ts';
export { KeyUseRecorder } from './features/keys/key-uses.ts';
export { redactSecrets } from './credentials/redact.ts';
export { newSecretKey, parseSecretKey, SecretBox } from './credentials/secret-box.ts';
export * from './errors.ts';
export type { Access } from './procedure-meta.ts';
export { callProcedure } from './procedure-calls.ts';
export { type ProcedurePath, type RestRoute, restRoutes } from './rest-routes.ts';
export { type AppRouter, appRouter, createCaller, type RouterInputs, type RouterOutputs } from './root.ts';
export { createRuntime, type RuntimeOptions } from './composition/runtime.ts';
export { API_SETTINGS, type ApiSettings, apiSettingsSchema, FEATURES } from './features.ts';
export type { Feature, Wiring } from './feature.ts';
export { flag, httpUrl, optionalHttpUrl, optionalText, variable, wholeNumber } from './settings/env-values.ts';
export { type SettingsOf, type SettingsSlice, settingsSchema, settingsSlice } from './settings/settings-slice.ts';
export { RATE_LIMIT_ENV, RATE_LIMITS_OFF } from './rate-limits/settings.ts';
export type { FileResources } from './features/files/services.ts';
export { type QueueJob, QueueWorker, type QueueWorkerOptions } from './infrastructure/queue-worker.ts';
export { type BackgroundTask, closer, TaskList } from './infrastructure/background-task.ts';
export { periodic } from './infrastructure/periodic.ts';
export { type MalwareScanner, ScannerUnavailable, type ScanVerdict } from './features/files/malware-scanner.ts';
export {
  CLAMD_TIMEOUTS,
  type ClamdAddress,
  ClamdScanner,
  type ClamdScannerOptions,
  malwareScannerFrom,
  parseClamdUrl,
} from './features/files/clamd-scanner.ts';
export { type EmailSenderSettings, emailSender } from './infrastructure/email-sender.ts';
export { logTransport, type MailTransport, type OutgoingEmail, smtpTransport } from './infrastructure/mail-transports.ts';
export type { WebhookWorkerSettings } from './features/webhooks/tasks.ts';
export { DatabaseOutage, type OutageState } from './infrastructure/database-outage.ts';
export { bodyToSend, EMAIL_KINDS, type EmailKind } from './infrastructure/outbox.ts';
export { escapeHtml } from './infrastructure/html-escape.ts';
export { DEFAULT_DELIVERY_SETTINGS, type DeliveryJobSettings, deliveryJob } from './features/webhooks/delivery-job.ts';
export { RETRY_DELAYS_MS } from './features/webhooks/retry-schedule.ts';
export { preflightSubmission } from './features/inbox/rules.ts';
export { findVisitorFacts, type VisitorFacts, visitorFactsOf } from './features/inbox/visitor-facts.ts';
/** For the benchmark's lower bound, which checks a submission by the same rules. */
export { validateSubmission } from './features/inbox/validation.ts';
export { sentValues } from './infrastructure/sent-values.ts';
export { sweepExpiredSubmissions } from './features/inbox/retention-sweep.ts';
export { DEFAULT_EXPORTS_PER_PERSON, EXPORT_BATCH, EXPORT_CONTENT_TYPES } from './features/inbox/export.ts';
export { DEFAULT_LONG_POLL_LIMITS } from './infrastructure/long-polls.ts';
export { CAPTCHA_TIMEOUT_MS, CAPTCHA_TOKEN_FIELDS, CAPTCHA_VERIFY_URLS, type CaptchaSettings } from './features/forms/captcha.ts';
export {
  type ByteRange,
  DirectoryStorage,
  type ObjectStorage,
  type ObjectStorageSettings,
  objectStorageFrom,
  S3Storage,
  syncFolder,
} from './features/files/storage/index.ts';
export { type SweepOutcome, sweepKeyLifecycle } from './features/keys/lifecycle-sweep.ts';
export {
  DEFAULT_RATE_LIMITS,
  RATE_LIMIT_NAMES,
  type RateLimitConfig,
  type RateLimitName,
  RateLimits,
} from './rate-limits/rate-limits.ts';
export type { UploadLimits, UploadPart, UploadSource } from './features/files/upload-source.ts';
export type { FileAnswer } from './features/files/router.ts';
export type { FilesSettings } from './features/files/settings.ts';
export { sweepAllOrphans, sweepObjects, sweepOrphans } from './features/files/object-sweep.ts';
