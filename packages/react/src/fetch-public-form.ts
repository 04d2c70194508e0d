import type { PublicForm } from './types.ts';

/**
 * Reads a form's public description where the page is rendered (a server component, a loader,
 * `getServerSideProps`), for `<LfkForm description={…}>` to draw the whole form in the first HTML:
 * it then works before (and without) JavaScript. Null when lfk has no such form to show.
 */
export async function fetchPublicForm(baseUrl: string, formId: string, init: RequestInit = {}): Promise<PublicForm | null> {
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/v1/forms/${encodeURIComponent(formId)}/public`, {
    ...init,
    headers: { accept: 'application/json', ...init.headers },
  });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`lfk answered ${res.status} for form ${formId}'s description`);
  return (await res.json()) as PublicForm;
}
