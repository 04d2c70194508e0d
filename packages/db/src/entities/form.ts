import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { FORM_STATES, SUBMISSION_MODES, TEXT_LIMITS } from '../constants.ts';
import { FormRepository } from '../repositories/forms.ts';
import { UpdatableEntity } from './base.ts';
import { Project } from './project.ts';
import { Workspace } from './workspace.ts';

export interface StoredField {
  name: string;
  type: string;
  required: boolean;
  label?: string;
  options?: string[];
}

/**
 * A form. It is born claimed (in a workspace) when made with a key or a session, or unclaimed
 * (no workspace, a hashed claim token) when made anonymously.
 */
export const Form = defineEntity({
  name: 'Form',
  tableName: 'forms',
  extends: UpdatableEntity,
  repository: () => FormRepository,
  properties: {
    workspace: () => p.manyToOne(Workspace).nullable(),
    project: () => p.manyToOne(Project).nullable(),
    name: p.string().length(TEXT_LIMITS.formName),
    state: p.enum(FORM_STATES),
    schema: p.json<StoredField[]>(),
    submissionMode: p.enum(SUBMISSION_MODES).default('browser'),
    allowedOrigins: p.json<string[]>(),
    notifyEmail: p.string().length(TEXT_LIMITS.email).nullable(),
    notifyEmailVerified: p.boolean().default(false),
    redirectUrl: p.string().length(TEXT_LIMITS.url).nullable(),
    claimTokenHash: p.string().length(64).nullable().unique(),
    /** When the last verification email was queued; resends are spaced from it. */
    verificationSentAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['workspace', 'id'] }],
});
export type IForm = InferEntity<typeof Form>;
