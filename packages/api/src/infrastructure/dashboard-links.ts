/** Links into the dashboard, as emails and chat messages carry them: the server's public URL, never a request's Host. */
const base = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

/** A form's inbox. */
export const inboxLink = (publicUrl: string, workspaceId: string, formId: string) => `${base(publicUrl)}/w/${workspaceId}/forms/${formId}/submissions`;

/** One submission, opened. */
export const submissionLink = (publicUrl: string, workspaceId: string, formId: string, submissionId: string) =>
  `${inboxLink(publicUrl, workspaceId, formId)}/${submissionId}`;
