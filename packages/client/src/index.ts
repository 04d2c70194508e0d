export { createLfkClient, type LfkCallContext, type LfkClient, type LfkClientOptions, type LfkCredentials } from './client.ts';
export {
  isLfkError,
  type LfkError,
  type LfkErrorData,
  type LfkErrorDetail,
  type LfkProblem,
  LfkResponseError,
  type LfkSecondFactorChallenge,
  lfkErrorOf,
  secondFactorChallengeOf,
} from './errors.ts';
export { exportSubmissions, type LfkExportQuery } from './export.ts';
export {
  downloadFile,
  type LfkCreatedSubmission,
  type LfkFileDownload,
  type LfkFileRequest,
  type LfkFileUpload,
  type LfkSubmissionFile,
  type LfkSubmissionValue,
  type LfkSubmissionWithFiles,
  openFileLink,
  submitWithFiles,
} from './files.ts';
export type { AppRouter, ErrorCode, RouterInputs, RouterOutputs } from './router.ts';
export {
  type LfkWebhookEvent,
  type LfkWebhookSubmission,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.ts';
export {
  curlSubmissionSnippet,
  fetchFormSnippet,
  fetchSubmissionSnippet,
  htmlFormSnippet,
  kitFormSnippet,
  reactFormSnippet,
  type SnippetForm,
  submissionUrl,
} from './snippets.ts';
