import type { FileReading, StoredField } from '@lfk/db';
import type { OutgoingEmail } from '../../infrastructure/outbox.ts';
import { describeBytes, undeclaredNames } from '@lfk/vocabulary';

/** A file field's value in the email: its files' names and sizes, never a link to one (a forwarded email must not hand them out). */
function filesShown(files: readonly FileReading[], field: string): string {
  const mine = files.filter((file) => file.field === field);
  if (mine.length === 0) return '(empty)';
  return mine.map((file) => `${file.name} (${describeBytes(file.size)}${file.status === 'quarantined' ? ', quarantined: malware found' : ''})`).join(', ');
}

/** A value as the email shows it; multi-line answers are indented so they read as one value. */
const line = (name: string, shown: string) => `${name}: ${shown.replace(/\r?\n/g, '\n    ')}`;

/**
 * A notification of one submission: each field of the form, in its order, with the value given,
 * then the fields it does not name that it kept; files by name, and a link to the submission in
 * the dashboard (`link`, for a claimed form).
 */
export function submissionEmail(input: {
  to: string;
  formName: string;
  fields: StoredField[];
  values: Record<string, unknown>;
  files: readonly FileReading[];
  link: string | null;
  submissionId: string;
  receivedAt: Date;
}): OutgoingEmail {
  const lines = input.fields.map((field) => {
    const value = input.values[field.name];
    return line(field.label ?? field.name, field.type === 'file' ? filesShown(input.files, field.name) : value === undefined ? '(empty)' : String(value));
  });
  const kept = undeclaredNames(input.fields, input.values).map((name) => line(name, String(input.values[name])));
  return {
    kind: 'submission',
    to: input.to,
    subject: `New submission to "${input.formName}"`,
    body: [
      `The form "${input.formName}" received a submission at ${input.receivedAt.toISOString()}.`,
      '',
      ...lines,
      ...(kept.length > 0 ? ['', 'Fields the form does not name:', ...kept] : []),
      '',
      `Submission id: ${input.submissionId}`,
      ...(input.link ? ['', `Open it in lfk: ${input.link}`] : []),
      '',
      `You receive this because ${input.to} is a notification address of this form.`,
    ].join('\n'),
  };
}
