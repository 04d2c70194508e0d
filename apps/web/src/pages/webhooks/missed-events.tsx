import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { trpcClient } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Time } from '../../components/time.tsx';
import type { Webhook } from './webhook-words.ts';

type Ids = { form_id: string; webhook_id: string };
type Range = { since: string; until: string };

/** What an endpoint missed while disabled, offered once it is enabled again, and on its card until sent. */
export function useMissedEvents(ids: Ids, refresh: () => Promise<unknown>) {
  const [missed, setMissed] = useState<{ since: string; until: string; count: number; more: boolean } | null>(null);
  const [recovered, setRecovered] = useState<number | null>(null);
  const offer = async (range: Range) => {
    const counted = await trpcClient.webhooks.recover.mutate({ ...ids, ...range, dry_run: true });
    if (counted.queued > 0) return setMissed({ ...range, count: counted.queued, more: counted.next_since !== null });
    // None left to send (deleted, or sent already): a recover of nothing says so to the server, which forgets them.
    await trpcClient.webhooks.recover.mutate({ ...ids, ...range });
    await refresh();
  };
  const ask = useMutation({ mutationFn: offer });
  const recover = useMutation({
    mutationFn: async (range: Range) => {
      // One recover takes at most 10,000 events: go on from where each stops.
      let queued = 0;
      for (let since: string | null = range.since; since !== null; ) {
        const step = await trpcClient.webhooks.recover.mutate({ ...ids, since, until: range.until });
        queued += step.queued;
        since = step.next_since;
      }
      return queued;
    },
    onSuccess: (queued) => {
      setMissed(null);
      setRecovered(queued);
      void refresh();
    },
  });
  const dismiss = () => {
    setMissed(null);
    recover.reset();
  };
  return { missed, recovered, offer, ask, recover, dismiss, forgetRecovered: () => setRecovered(null) };
}

type MissedEvents = ReturnType<typeof useMissedEvents>;

/** Each range an enabled endpoint missed while it was disabled, with the offer to send it. */
export function MissedRanges({ webhook, missedEvents: { ask } }: { webhook: Webhook; missedEvents: MissedEvents }) {
  return (
    <>
      {webhook.enabled &&
        webhook.missed.map((range) => (
          <p key={range.since}>
            Events made while it was disabled (<Time iso={range.since} /> to <Time iso={range.until} />) were not sent to it.{' '}
            <button type="button" className="secondary" disabled={ask.isPending} onClick={() => ask.mutate(range)}>
              Send missed events
            </button>
          </p>
        ))}
    </>
  );
}

/** What sending the missed events queued. */
export function RecoveredNote({ missedEvents: { recovered } }: { missedEvents: MissedEvents }) {
  if (recovered === null) return null;
  return (
    <p role="status" className="ok">
      Queued {recovered === 1 ? '1 event' : `${recovered} events`} from while it was disabled, with {recovered === 1 ? 'its original id' : 'their original ids'}
      .
    </p>
  );
}

/** The offer to send what it missed, with their original ids. */
export function MissedEventsDialog({ missedEvents: { missed, recover, dismiss } }: { missedEvents: MissedEvents }) {
  return (
    <ConfirmDialog
      open={missed !== null}
      title="Send what it missed?"
      confirmLabel="Send them"
      offer={{ cancelLabel: 'Not now' }}
      onConfirm={() => missed && recover.mutate(missed)}
      onClose={dismiss}
      pending={recover.isPending}
      error={recover.error}
    >
      <p>
        {missed?.more ? 'More than ' : ''}
        {missed?.count} event{missed?.count === 1 ? ' was' : 's were'} made while it was disabled. Send {missed?.count === 1 ? 'it' : 'them'} now, with{' '}
        {missed?.count === 1 ? 'its' : 'their'} original <code>webhook-id</code>, so a receiver drops any it already has?
      </p>
    </ConfirmDialog>
  );
}
