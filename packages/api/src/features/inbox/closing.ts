import { Form, type FormReading, Submission } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { ApiError } from '../../errors.ts';

/** The form's own words when it has them: a closed form answers with its `closed_message`. */
const formClosed = (form: FormReading) => new ApiError('form_closed', form.closedMessage ? { message: form.closedMessage } : {});

/** Not closed by hand nor past its `closes_at`: decided when asked, so no sweep is needed (a cap is counted apart). */
export const isOpenAt = (form: Pick<FormReading, 'closed' | 'closesAt'>, now: Date): boolean =>
  !form.closed && (form.closesAt == null || form.closesAt.getTime() > now.getTime());

export function assertOpen(form: FormReading, now: Date): void {
  if (!isOpenAt(form, now)) throw formClosed(form);
}

/**
 * A capped form takes a submission only while it holds fewer than `max_submissions`: the form's row
 * is locked to the end of the transaction that writes it, so concurrent posts are counted one at a
 * time and the cap holds exactly. Uncapped forms take no lock.
 */
export async function assertUnderCap(em: EntityManager, form: FormReading): Promise<void> {
  if (form.maxSubmissions == null) return;
  await em.getRepository(Form).lockRow(form.id);
  if ((await em.getRepository(Submission).countOk(form.id)) >= form.maxSubmissions) throw formClosed(form);
}
