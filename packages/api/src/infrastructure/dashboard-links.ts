/** Links into the dashboard, as emails and chat messages carry them: the server's public URL, never a request's Host. */
const base = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

/**
 * The person's account page: an account belongs to no one workspace, so the dashboard's `/account`
 * leads to it in their first (the security emails link here).
 */
export const accountLink = (publicUrl: string) => `${base(publicUrl)}/account`;

/** A form's inbox. */
export const inboxLink = (publicUrl: string, workspaceId: string, formId: string) => `${base(publicUrl)}/w/${workspaceId}/forms/${formId}/submissions`;

/** One submission, opened. */
export const submissionLink = (publicUrl: string, workspaceId: string, formId: string, submissionId: string) =>
  `${inboxLink(publicUrl, workspaceId, formId)}/${submissionId}`;
