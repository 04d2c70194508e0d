import { workspaceListCommand } from '../workspace-list.ts';

export const formsListCommand = () =>
  workspaceListCommand(
    "The workspace's forms, newest first (needs a session)",
    (api) => api.forms.list,
    [
      { header: 'ID', value: (f) => f.id },
      { header: 'NAME', value: (f) => f.name, shrink: true },
      { header: 'MODE', value: (f) => f.submission_mode, optional: true },
      { header: 'FIELDS', value: (f) => String(f.schema.length), optional: true },
      { header: 'SUBMISSIONS', value: (f) => String(f.submission_count) },
      { header: 'LAST', value: (f) => f.last_submission_at ?? '', time: true, optional: true },
      { header: 'DRAFTS', value: (f) => (f.drafts.enabled ? String(f.draft_count) : ''), optional: true },
      {
        header: 'NOTIFY',
        value: (f) => f.notify_emails.map((address) => `${address}${f.verified_notify_emails.includes(address) ? '' : ' (unverified)'}`).join(', '),
        shrink: true,
        optional: true,
      },
      { header: 'CREATED', value: (f) => f.created_at, time: true, optional: true },
    ],
    (workspaceId) => `No forms in ${workspaceId}. Create one with 'lfk forms create'.`,
  );
