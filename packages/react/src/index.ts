/**
 * `@lfk/react`: lfk forms in React 18 and 19. `useLfkForm(formId, { baseUrl })` gives the state
 * (`submitting`, `succeeded`, `errors` by field, `progress`) and the form's `onSubmit`;
 * `<LfkForm>` draws the whole form from its public description, `<LfkField>` one field and
 * `<LfkError>` one field's message. Nothing touches `window` at import or while rendering: it
 * renders on a server, and with `fetchPublicForm` there the first HTML is a working form.
 */
export { LfkError, type LfkErrorProps, LfkField, type LfkFieldProps, LfkForm, type LfkFormProps } from './components.tsx';
export { fetchPublicForm } from './fetch-public-form.ts';
export type { LfkCreatedSubmission, LfkProgress, PublicField, PublicForm } from './types.ts';
export { type LfkFormApi, type LfkFormOptions, type LfkFormState, useLfkForm } from './use-lfk-form.ts';
