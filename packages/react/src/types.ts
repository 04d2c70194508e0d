import type { LfkCreatedSubmission, RouterOutputs } from '@lfk/client';

export type { LfkCreatedSubmission };

/** `GET /v1/forms/{form_id}/public`: what a page needs to draw and send the form. */
export type PublicForm = RouterOutputs['publicForms']['get'];
export type PublicField = PublicForm['fields'][number];

export interface LfkProgress {
  loaded: number;
  total: number;
  percent: number;
}
