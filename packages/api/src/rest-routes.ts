import { z } from 'zod';
import type { RouterInputs } from './root.ts';
import { apiKey, apiKeyCreateInput, apiKeyListInput, apiKeyRevokeInput, createdApiKey } from './schemas/api-keys.ts';
import { loginInput, loginOutput, sessionOutput, signupInput, signupOutput } from './schemas/auth.ts';
import { listInput, listOf } from './schemas/common.ts';
import { emailVerificationInput } from './schemas/email-verifications.ts';
import {
  createdForm,
  form,
  formClaimInput,
  formCreateInput,
  formIdInput,
  formListInput,
  formUpdateInput,
  verificationSent,
} from './schemas/forms.ts';
import {
  createdSubmission,
  SUBMISSION_MAX_BYTES,
  submission,
  submissionListInput,
  submissionValue,
} from './schemas/submissions.ts';
import {
  auditEvent,
  auditEventListInput,
  member,
  memberAddInput,
  memberListInput,
  memberRemoveInput,
  project,
  projectCreateInput,
  projectListInput,
  workspace,
  workspaceCreateInput,
} from './schemas/workspaces.ts';

export type ProcedurePath = {
  [R in keyof RouterInputs]: `${R & string}.${keyof RouterInputs[R] & string}`;
}[keyof RouterInputs];

/** Who may call a route; documentation for OpenAPI, enforced by the procedure's own builder. */
export type Access = 'public' | 'session' | 'member' | 'owner' | 'forms_scope';

export interface RestRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Fastify syntax: `:name` segments become input fields of the same name. */
  path: string;
  procedure: ProcedurePath;
  /** Where the rest of the input comes from besides the path. */
  from: 'body' | 'query' | 'none';
  status: 200 | 201 | 202 | 204;
  /**
   * Routes whose HTTP side is more than JSON in, JSON out get their own module in the server:
   * `submission` takes urlencoded HTML form posts and CORS; `html` answers a page.
   */
  transport?: 'submission' | 'html';
  /** The most body bytes read, when the procedure holds a tighter limit than the server's 1 MiB. */
  bodyLimit?: number;
  access: Access;
  summary: string;
  input: z.ZodType | null;
  output: z.ZodType | null;
}

const ws = '/v1/workspaces/:workspace_id';

/** The `/v1` REST API: each route is one procedure, reached through a server-side caller. */
export const restRoutes: RestRoute[] = [
  { method: 'POST', path: '/v1/auth/signup', procedure: 'auth.signup', from: 'body', status: 201, access: 'public',
    summary: 'Create an account, its personal workspace and a session', input: signupInput, output: signupOutput },
  { method: 'POST', path: '/v1/auth/login', procedure: 'auth.login', from: 'body', status: 200, access: 'public',
    summary: 'Sign in and get a session token', input: loginInput, output: loginOutput },
  { method: 'POST', path: '/v1/auth/logout', procedure: 'auth.logout', from: 'none', status: 204, access: 'session',
    summary: 'Sign out: the session is revoked', input: null, output: null },
  { method: 'GET', path: '/v1/auth/session', procedure: 'auth.session', from: 'none', status: 200, access: 'session',
    summary: 'The signed-in user and when the session expires', input: null, output: sessionOutput },

  { method: 'GET', path: '/v1/workspaces', procedure: 'workspaces.list', from: 'query', status: 200, access: 'session',
    summary: "The caller's workspaces, with the caller's role", input: listInput, output: listOf(workspace) },
  { method: 'POST', path: '/v1/workspaces', procedure: 'workspaces.create', from: 'body', status: 201, access: 'session',
    summary: 'Create a workspace; the caller becomes its owner', input: workspaceCreateInput, output: workspace },

  { method: 'GET', path: `${ws}/members`, procedure: 'members.list', from: 'query', status: 200, access: 'member',
    summary: "The workspace's members", input: memberListInput, output: listOf(member) },
  { method: 'POST', path: `${ws}/members`, procedure: 'members.add', from: 'body', status: 201, access: 'owner',
    summary: 'Add an existing user by email', input: memberAddInput, output: member },
  { method: 'DELETE', path: `${ws}/members/:user_id`, procedure: 'members.remove', from: 'none', status: 204, access: 'owner',
    summary: 'Remove a member; the last owner cannot be removed', input: memberRemoveInput, output: null },

  { method: 'GET', path: `${ws}/projects`, procedure: 'projects.list', from: 'query', status: 200, access: 'member',
    summary: "The workspace's projects", input: projectListInput, output: listOf(project) },
  { method: 'POST', path: `${ws}/projects`, procedure: 'projects.create', from: 'body', status: 201, access: 'owner',
    summary: 'Create a project', input: projectCreateInput, output: project },

  { method: 'GET', path: `${ws}/audit-events`, procedure: 'auditEvents.list', from: 'query', status: 200, access: 'owner',
    summary: "The workspace's audit events, newest first", input: auditEventListInput, output: listOf(auditEvent) },

  { method: 'POST', path: `${ws}/api-keys`, procedure: 'apiKeys.create', from: 'body', status: 201, access: 'owner',
    summary: 'Create an API key; the plaintext key is in this response only', input: apiKeyCreateInput, output: createdApiKey },
  { method: 'GET', path: `${ws}/api-keys`, procedure: 'apiKeys.list', from: 'query', status: 200, access: 'owner',
    summary: 'List API keys by display prefix, revoked ones included', input: apiKeyListInput, output: listOf(apiKey) },
  { method: 'DELETE', path: `${ws}/api-keys/:key_id`, procedure: 'apiKeys.revoke', from: 'none', status: 204, access: 'owner',
    summary: 'Revoke an API key (soft; idempotent)', input: apiKeyRevokeInput, output: null },

  { method: 'POST', path: '/v1/forms', procedure: 'forms.create', from: 'body', status: 201, access: 'forms_scope',
    summary: "Create a form: claimed in the key's workspace (or `workspace_id` with a session), or unclaimed without credentials",
    input: formCreateInput, output: createdForm },
  { method: 'GET', path: '/v1/forms/:form_id', procedure: 'forms.get', from: 'none', status: 200, access: 'forms_scope',
    summary: 'Read a claimed form', input: formIdInput, output: form },
  { method: 'PATCH', path: '/v1/forms/:form_id', procedure: 'forms.update', from: 'body', status: 200, access: 'forms_scope',
    summary: 'Update some fields of a claimed form', input: formUpdateInput, output: form },
  { method: 'POST', path: '/v1/forms/:form_id/resend-verification', procedure: 'forms.resendVerification', from: 'none',
    status: 202, access: 'forms_scope', summary: "Send a new verification link to the form's notify_email",
    input: formIdInput, output: verificationSent },
  { method: 'POST', path: '/v1/forms/:form_id/claim', procedure: 'forms.claim', from: 'body', status: 200, access: 'member',
    summary: 'Claim an unclaimed form into a workspace of the caller, with its claim token', input: formClaimInput, output: form },
  { method: 'GET', path: `${ws}/forms`, procedure: 'forms.list', from: 'query', status: 200, access: 'member',
    summary: "The workspace's forms, newest first", input: formListInput, output: listOf(form) },

  { method: 'POST', path: '/v1/forms/:form_id/submissions', procedure: 'submissions.create', from: 'body', status: 201,
    access: 'public', transport: 'submission', bodyLimit: SUBMISSION_MAX_BYTES,
    summary: 'Submit to a form: from an allowed origin (browser mode) or with a key of its workspace',
    input: z.record(z.string(), submissionValue), output: createdSubmission },
  { method: 'GET', path: '/v1/forms/:form_id/submissions', procedure: 'submissions.list', from: 'query', status: 200,
    access: 'member', summary: "A form's submissions, newest first (members' sessions only)",
    input: submissionListInput, output: listOf(submission) },

  { method: 'GET', path: '/v1/email-verifications/:token', procedure: 'emailVerifications.preview', from: 'none',
    status: 200, access: 'public', transport: 'html',
    summary: 'Open a verification link: a small HTML page with a "Verify" button; GET and HEAD change nothing',
    input: emailVerificationInput, output: null },
  { method: 'POST', path: '/v1/email-verifications/:token', procedure: 'emailVerifications.confirm', from: 'none',
    status: 200, access: 'public', transport: 'html',
    summary: 'The "Verify" button: marks the address verified (the link works once) and answers a small HTML page',
    input: emailVerificationInput, output: null },
];
