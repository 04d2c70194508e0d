import { isId, Submission } from '@lfk/db';
import { PAGE_MAX_BYTES } from '@lfk/vocabulary';
import { invalidField } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { formMemberProcedure } from '../../trpc.ts';
import { linkedFilesOf } from '../files/linked-files.ts';
import { submissionCreatedPayload, submissionEventId, submissionOfEvent } from './events.ts';
import { formEventPage, formEventsInput } from './schemas.ts';
import { cursorOf, positionOf } from './stream-cursor.ts';

/** The form's events feed: what webhooks send, read after a cursor (and long-polled), as `lfk listen` does. */
export const eventFeedProcedures = {
  events: formMemberProcedure
    .meta(
      rest(
        'GET /v1/forms/:form_id/events',
        200,
        "The form's events after a cursor, in the order they committed, exactly as webhooks send them (members' sessions only): " +
          'what `lfk listen` forwards. With `wait`, an empty page is held until an event arrives or the wait is over (a long poll); ' +
          'a person holds at most `LFK_LONG_POLLS_PER_PERSON` such polls at once and a workspace `LFK_LONG_POLLS_PER_WORKSPACE`, ' +
          'then `429 rate_limited` with `Retry-After`',
        { errors: ['rate_limited'] },
      ),
    )
    .input(formEventsInput)
    .output(formEventPage)
    .query(async ({ ctx, input }) => {
      const submissions = ctx.em.getRepository(Submission);
      if (input.after === undefined) return { data: [], cursor: cursorOf(await submissions.streamNow()), has_more: false };
      // A cursor, or (as this feed gave before) an event id: where that event's submission stands.
      const after =
        positionOf(input.after) ?? (isId('msg', input.after) ? await submissions.streamPositionOf(ctx.form.id, submissionOfEvent(input.after)) : null);
      if (!after) throw invalidField('after', 'Not a cursor of this stream.');
      const bounds = { rows: input.limit, bytes: PAGE_MAX_BYTES };
      let page = await submissions.streamAfter(ctx.form.id, after, bounds);
      if (page.rows.length === 0 && input.wait > 0 && !ctx.services.longPolls.stopping) {
        // Held: a place of the person's and the workspace's, given back however the wait ends (news,
        // the wait over, the client gone, the server stopping). It waits on the shared watch, which
        // looks at every held poll's form in one statement; the page is read again only on news.
        const giveBack = ctx.services.longPolls.hold(ctx.session.userId, ctx.form.workspace!.id);
        try {
          const until = AbortSignal.any([AbortSignal.timeout(input.wait * 1000), ctx.services.longPolls.stopped, ctx.clientGone()]);
          while (page.rows.length === 0 && (await ctx.services.feedWatch.news(ctx.form.id, after, until))) {
            page = await submissions.streamAfter(ctx.form.id, after, bounds);
          }
        } finally {
          giveBack();
        }
      }
      const form = { id: ctx.form.id, name: ctx.form.name };
      const filesOf = await linkedFilesOf(
        ctx.em,
        ctx.services,
        ctx.form.workspace?.id ?? null,
        page.rows.map((row) => row.id),
      );
      const data = page.rows.map((row) => ({
        id: submissionEventId(row.id),
        type: 'submission.created' as const,
        created_at: row.createdAt.toISOString(),
        payload: submissionCreatedPayload({
          form,
          submission: { id: row.id, createdAt: row.createdAt, source: row.source, values: row.data },
          files: filesOf(row.id),
        }),
      }));
      return { data, cursor: cursorOf(page.rows.at(-1)?.position ?? after), has_more: page.more };
    }),
};
