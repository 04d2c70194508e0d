import { AutoReplyStop, Workspace } from '@lfk/db';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { publicProcedure, router } from '../../trpc.ts';
import { autoReplyStopInput, autoReplyStopped } from './schemas.ts';
import { readStopToken } from './stop-links.ts';

const brokenLink = () => new ApiError('not_found', { message: 'This link does not work: it was not made by this lfk, or its workspace is gone.' });

/** The workspace and the address a stop link names, if lfk made it and the workspace is still there. */
async function stopOf(ctx: Context, token: string) {
  const named = readStopToken(ctx.services.secretBox, token);
  if (!named) throw brokenLink();
  const name = await ctx.em.getRepository(Workspace).nameOf(named.workspaceId);
  if (name === null) throw brokenLink();
  return { ...named, name };
}

export const autoReplyStopsRouter = router({
  /** What a stop link would stop, changing nothing: mail scanners open links too. */
  preview: publicProcedure
    .meta(
      rest('GET /v1/auto-reply-stops/:token', 200, "Open an auto-reply's stop link: a small HTML page with a button; GET and HEAD change nothing", {
        transport: 'html',
        errors: ['not_found'],
      }),
    )
    .input(autoReplyStopInput)
    .output(autoReplyStopped)
    .query(async ({ ctx, input }) => {
      const stop = await stopOf(ctx, input.token);
      return { email: stop.email, workspace: { name: stop.name } };
    }),

  /**
   * Stops the workspace's auto-replies to the address: the page's button, or a mail program's
   * one-click post (RFC 8058). Pressing it again changes nothing.
   */
  confirm: publicProcedure
    .meta(
      rest(
        'POST /v1/auto-reply-stops/:token',
        200,
        "The stop link's button, or a one-click unsubscribe (RFC 8058): the workspace's forms send the address no more auto-replies",
        { transport: 'html', errors: ['not_found'] },
      ),
    )
    .input(autoReplyStopInput)
    .output(autoReplyStopped)
    .mutation(async ({ ctx, input }) => {
      const stop = await stopOf(ctx, input.token);
      await ctx.em.getRepository(AutoReplyStop).stop(stop.workspaceId, stop.email, ctx.services.now());
      return { email: stop.email, workspace: { name: stop.name } };
    }),
});
