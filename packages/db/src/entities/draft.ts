import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';
import { DraftRepository } from '../repositories/drafts.ts';
import { UpdatableEntity } from './base.ts';
import { Form } from './form.ts';

/**
 * What a visitor has typed into a form and not sent yet, kept so a closed tab loses nothing. The
 * page holds its resume token (`lfd_…`); only the token's SHA-256 is stored. Never a file, never a
 * private field. Gone when it becomes a submission, when its lifetime ends (`expiresAt`, renewed by
 * each save), or with its form.
 */
export const Draft = defineEntity({
  name: 'Draft',
  tableName: 'drafts',
  repository: () => DraftRepository,
  extends: UpdatableEntity,
  properties: {
    form: () => p.manyToOne(Form).deleteRule('cascade'),
    tokenHash: p.string().length(64).unique(),
    data: p.json<Record<string, string | boolean>>().columnType('json'),
    /** The page's origin (one of the form's allowed origins when it was saved). */
    origin: p.string().length(TEXT_LIMITS.url),
    expiresAt: p.datetime().index(),
  },
  // The owners' list reads a form's drafts newest first.
  indexes: [{ properties: ['form', 'id'] }],
});
export type IDraft = InferEntity<typeof Draft>;
