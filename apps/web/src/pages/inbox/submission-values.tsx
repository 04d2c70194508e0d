import type { RouterOutputs } from '@lfk/client';
import { describeBytes, undeclaredNames } from '@lfk/vocabulary';
import type { Form } from '../forms/form-values.ts';

type Submission = RouterOutputs['submissions']['get'];

type StoredValue = string | number | boolean | string[] | undefined;

/** A value as the inbox shows it; a file field's (its files' ids) as the files' names. */
export const valueText = (value: StoredValue, files: Submission['files'] = []) =>
  Array.isArray(value)
    ? value.map((id) => files.find((file) => file.id === id)?.name ?? id).join(', ') || '—'
    : value === undefined || value === ''
      ? '—'
      : typeof value === 'boolean'
        ? value
          ? 'Yes'
          : 'No'
        : String(value);

/** A submission's files: each downloaded as an attachment, but a quarantined one, which says why and cannot be. */
function SubmissionFiles({ submission, field }: { submission: Submission; field: string }) {
  const files = submission.files.filter((file) => file.field === field);
  if (files.length === 0) return <>—</>;
  return (
    <ul className="files">
      {files.map((file) => (
        <li key={file.id} className={file.status === 'quarantined' ? 'file quarantined' : 'file'}>
          {file.status === 'stored' ? (
            <a href={`/v1/forms/${submission.form_id}/submissions/${submission.id}/files/${file.id}`} download={file.name}>
              {file.name}
            </a>
          ) : (
            <span className="file-name">{file.name}</span>
          )}{' '}
          <span className="muted">
            {describeBytes(file.size)} · {file.content_type}
          </span>
          {file.status === 'quarantined' && (
            <p className="quarantine-reason">
              <span className="badge badge-revoked">Quarantined</span> The malware scanner found <code>{file.malware}</code> in it, so it cannot be downloaded.
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Every value of a submission, the form's fields first, then those it does not name (kept, or removed since): it keeps what was sent. */
export function SubmissionValues({ form, submission }: { form: Form; submission: Submission }) {
  const labels = new Map(form.schema.map((f) => [f.name, f.label ?? f.name]));
  const names = [...form.schema.map((f) => f.name), ...undeclaredNames(form.schema, submission.data)];
  return (
    <dl className="submission">
      {names.map((name) => (
        <div key={name}>
          <dt>{labels.get(name) ?? name}</dt>
          <dd>{Array.isArray(submission.data[name]) ? <SubmissionFiles submission={submission} field={name} /> : valueText(submission.data[name])}</dd>
        </div>
      ))}
      <div>
        <dt>Submission id</dt>
        <dd>
          <code>{submission.id}</code>
        </dd>
      </div>
    </dl>
  );
}
