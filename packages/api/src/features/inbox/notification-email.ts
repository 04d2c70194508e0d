import type { NewEmail, StoredField } from '@lfk/db';

/** A notification of one submission: each field of the form, in its order, with the value given. */
export function submissionEmail(input: {
  to: string;
  formName: string;
  fields: StoredField[];
  values: Record<string, string | number | boolean>;
  submissionId: string;
  receivedAt: Date;
}): NewEmail {
  const lines = input.fields.map((field) => {
    const value = input.values[field.name];
    const shown = value === undefined ? '(empty)' : String(value);
    // Multi-line answers are indented so they read as one value.
    return `${field.label ?? field.name}: ${shown.replace(/\r?\n/g, '\n    ')}`;
  });
  return {
    kind: 'submission',
    to: input.to,
    subject: `New submission to "${input.formName}"`,
    body: [
      `The form "${input.formName}" received a submission at ${input.receivedAt.toISOString()}.`,
      '',
      ...lines,
      '',
      `Submission id: ${input.submissionId}`,
    ].join('\n'),
  };
}
