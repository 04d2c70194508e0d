import { FormEvent, type QueuedEvent, Submission, WebhookDelivery } from '@lfk/db';
import { DAY_MS, WEBHOOK_RECOVER_MAX_DAYS, WEBHOOK_RECOVER_MAX_EVENTS } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { Services } from '../../context.ts';
import { sendableFilesOf } from '../files/linked-files.ts';
import { submissionCreatedBody, submissionEventId } from './events.ts';

/**
 * The oldest moment a recover reaches at `now` (30 days back), with an hour to spare: a range
 * offered from it may be asked for a little later and still be in reach.
 */
export const recoverReach = (now: Date) => new Date(now.getTime() - WEBHOOK_RECOVER_MAX_DAYS * DAY_MS + 3600_000);

/** An event of the range, before its body is read. */
interface EventRef {
  /** Its `webhook-id`. */
  id: string;
  type: string;
  createdAt: Date;
  /** The submission it is about, if any. */
  submissionId: string | null;
}

export interface RecoverPlan {
  /** The events to queue, oldest first. */
  events: EventRef[];
  /** Events of the range that wait to be sent to the endpoint already (pending or held): not queued again. */
  alreadyWaiting: number;
  /** When the range holds more events than one recover takes: where the next one starts. */
  nextSince: Date | null;
}

/** Events read and queued per transaction: a short one, so submissions keep flowing meanwhile. */
const CHUNK = 500;

export const recoverChunks = <T>(items: readonly T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * The form's events of the endpoint's types made in [since, until), oldest first, at most
 * `WEBHOOK_RECOVER_MAX_EVENTS`: each real submission's `submission.created` (its submission is its
 * record), and the recorded events of the other types; less those already waiting for the endpoint.
 */
export async function planRecover(
  em: EntityManager,
  formId: string,
  endpoint: { id: string; events: readonly string[] },
  since: Date,
  until: Date,
): Promise<RecoverPlan> {
  const cap = WEBHOOK_RECOVER_MAX_EVENTS;
  const created = endpoint.events.includes('submission.created')
    ? (await em.getRepository(Submission).realMadeIn(formId, since, until, cap + 1)).map(
        (s): EventRef => ({ id: submissionEventId(s.id), type: 'submission.created', createdAt: s.createdAt, submissionId: s.id }),
      )
    : [];
  const others = endpoint.events.filter((type) => type !== 'submission.created');
  const recorded = (await em.getRepository(FormEvent).inRange(formId, others, since, until, cap + 1)).map(
    (e): EventRef => ({ id: e.id, type: e.type, createdAt: e.createdAt, submissionId: e.submissionId }),
  );
  const all = [...created, ...recorded].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const inRange = all.slice(0, cap);
  const deliveries = em.getRepository(WebhookDelivery);
  const waiting = new Set<string>();
  for (const chunk of recoverChunks(inRange)) {
    for (const id of await deliveries.waitingAmong(
      endpoint.id,
      chunk.map((e) => e.id),
    ))
      waiting.add(id);
  }
  return { events: inRange.filter((e) => !waiting.has(e.id)), alreadyWaiting: waiting.size, nextSince: all[cap]?.createdAt ?? null };
}

/**
 * The bodies of one chunk of a plan's events, as they are sent now. A `submission.created` one is
 * rebuilt from its submission, a recorded one is sent as it was recorded. One whose submission is
 * no longer a real one (deleted or marked spam since, or holding a quarantined file) is left out,
 * but a `submission.deleted`; the others' deliveries are tied to their submission, as a new one's.
 */
export async function bodiesOf(
  em: EntityManager,
  services: Pick<Services, 'files' | 'now'>,
  form: { id: string; name: string; workspaceId: string | null },
  events: readonly EventRef[],
): Promise<QueuedEvent[]> {
  const about = events.flatMap((e) => (e.submissionId && e.type !== 'submission.deleted' ? [e.submissionId] : []));
  const submissions = new Map((await em.getRepository(Submission).realOfIds(form.id, about)).map((s) => [s.id, s]));
  const filesOf = await sendableFilesOf(em, services, form.workspaceId, [...submissions.keys()]);
  const recorded = await em.getRepository(FormEvent).payloadsOf(events.flatMap((e) => (e.type === 'submission.created' ? [] : [e.id])));
  return events.flatMap((event): QueuedEvent[] => {
    if (event.type === 'submission.deleted' || event.submissionId === null) {
      const payload = recorded.get(event.id);
      return payload === undefined ? [] : [{ eventId: event.id, type: event.type, payload, submissionId: null }];
    }
    const submission = submissions.get(event.submissionId);
    const files = submission && filesOf(submission.id);
    if (!submission || !files) return [];
    if (event.type !== 'submission.created') {
      const payload = recorded.get(event.id);
      return payload === undefined ? [] : [{ eventId: event.id, type: event.type, payload, submissionId: submission.id }];
    }
    const payload = submissionCreatedBody({
      form: { id: form.id, name: form.name },
      submission: { id: submission.id, createdAt: submission.createdAt, source: submission.source, values: submission.data },
      files,
    });
    return [{ eventId: event.id, type: event.type, payload, submissionId: submission.id }];
  });
}
