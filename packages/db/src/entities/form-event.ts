import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { FormEventRepository } from '../repositories/form-events.ts';
import { BaseEntity } from './base.ts';
import { Form } from './form.ts';

/**
 * One of a form's events other than `submission.created` (a submission released or deleted, the
 * form closed or reopened), kept `WEBHOOK_RECOVER_MAX_DAYS` whether or not an endpoint listened, so
 * a recover can send it again with its own id (`msg_…`) and body. A `submission.created` event
 * needs no row: its submission is its record.
 */
export const FormEvent = defineEntity({
  name: 'FormEvent',
  tableName: 'form_events',
  extends: BaseEntity,
  repository: () => FormEventRepository,
  properties: {
    form: () => p.manyToOne(Form).deleteRule('cascade'),
    type: p.string().length(64),
    /** The submission it is about, if any: no foreign key, since a deleted one's event outlives it. */
    submissionId: p.string().length(40).nullable(),
    /** The body exactly as it is signed and sent. */
    payload: p.text(),
  },
  indexes: [{ properties: ['form', 'createdAt'] }, { properties: ['createdAt'] }],
});
export type IFormEvent = InferEntity<typeof FormEvent>;
