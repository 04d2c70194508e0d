import type { FormReading } from '@lfk/db';
import type { Services } from '../../context.ts';
import { readForm } from '../forms/form-cache.ts';
import { isOriginAllowed } from './rules.ts';

/** What the answer to a refused HTML form post needs of its form. */
export interface VisitorFacts {
  /** The fields' labels by name, so a page speaks of the fields as the person saw them. */
  labels: Record<string, string>;
  /** Where a refused visitor goes instead of lfk's page (`?error=&fields=`), when the form names one. */
  errorRedirectUrl: string | null;
  /** The post's origin when the form takes browser submissions from it: a page may lead back there. */
  origin: string | null;
}

export function visitorFactsOf(form: FormReading, origin: string | undefined): VisitorFacts {
  return {
    labels: Object.fromEntries(form.schema.flatMap((field) => (field.label ? [[field.name, field.label]] : []))),
    errorRedirectUrl: form.errorRedirectUrl ?? null,
    origin: origin !== undefined && isOriginAllowed(form, origin) ? origin : null,
  };
}

/**
 * The same, for a post refused before the submission's procedure read its form (a body too large
 * or of a type no form takes): its form read here; null when there is no such form.
 */
export async function findVisitorFacts(services: Pick<Services, 'db' | 'formCache'>, formId: string, origin: string | undefined): Promise<VisitorFacts | null> {
  const form = await readForm(services.formCache, services.db.fork(), formId);
  return form && visitorFactsOf(form, origin);
}
