import type { FormReading, StoredField } from '@lfk/db';
import { FIELD_MAX_LENGTH, type FieldType } from '@lfk/vocabulary';
import type { z } from 'zod';
import { fileRulesOf, type IntakeSettings } from '../files/intake.ts';
import { isOpenAt } from '../inbox/closing.ts';
import type { publicField, publicForm } from './schemas.ts';

type PublicField = z.infer<typeof publicField>;

function publicFieldOf(field: StoredField, files: ReturnType<typeof fileRulesOf>): PublicField {
  // The type was checked when the form was written.
  const described: PublicField = { name: field.name, type: field.type as FieldType, label: field.label ?? null, required: field.required ?? false };
  const maxLength = (FIELD_MAX_LENGTH as Partial<Record<FieldType, number>>)[field.type as FieldType];
  if (maxLength !== undefined) described.max_length = maxLength;
  if (field.options) described.options = field.options;
  if (field.private) described.private = true;
  const file = files.get(field.name);
  if (file) {
    if (file.accept) described.accept = [...file.accept];
    described.max_size = file.maxSize;
    described.multiple = field.multiple === true;
    described.max_files = file.maxFiles;
  }
  return described;
}

/** A form as the page it lives on sees it, with the limits this server applies. */
export function publicFormOf(form: FormReading, intake: IntakeSettings, now: Date): z.infer<typeof publicForm> {
  const files = fileRulesOf(form.schema, intake);
  return {
    id: form.id,
    name: form.name,
    open: isOpenAt(form, now),
    closed_message: form.closedMessage ?? null,
    fields: form.schema.map((field) => publicFieldOf(field, files)),
    honeypot_field: form.honeypot ?? null,
    captcha: form.captchaProvider && form.captchaSiteKey ? { provider: form.captchaProvider, site_key: form.captchaSiteKey } : null,
    drafts: form.drafts?.enabled === true,
    draft_email_link: form.drafts?.enabled === true && form.drafts.email_link === true,
  };
}
