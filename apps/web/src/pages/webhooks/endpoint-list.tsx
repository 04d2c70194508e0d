import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { trpc } from '../../api/trpc.ts';
import { Empty, LoadedList } from '../../components/states.tsx';
import { AddEndpointDialog } from './add-endpoint-dialog.tsx';
import { EndpointCard } from './endpoint-card.tsx';

/** A form's endpoints, each on its card, and adding one. */
export function Endpoints({ formId, formName }: { formId: string; formName: string }) {
  const [adding, setAdding] = useState(false);
  const endpoints = useQuery(trpc.webhooks.list.queryOptions({ form_id: formId }));
  return (
    <>
      <div className="page-header">
        <h1>Webhooks of {formName}</h1>
        <button type="button" onClick={() => setAdding(true)}>
          Add endpoint
        </button>
      </div>
      <p className="muted">
        Each event an endpoint takes is POSTed to it while it is enabled, signed with Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>
        , <code>webhook-signature</code>), or to a Slack or Discord channel as a message. Failed deliveries are retried for about three days; one still failing
        then stays in the log as failed, for you to retry.
      </p>
      <LoadedList
        query={endpoints}
        what="webhooks"
        empty={
          <Empty title="No webhooks yet.">
            <p>Add an endpoint to send this form's submissions to your own systems: a CRM, a queue, a chat.</p>
          </Empty>
        }
      >
        {(page) => (
          <ul className="webhooks">
            {page.data.map((webhook) => (
              <li key={webhook.id}>
                <EndpointCard formId={formId} webhook={webhook} />
              </li>
            ))}
          </ul>
        )}
      </LoadedList>
      <AddEndpointDialog formId={formId} open={adding} onClose={() => setAdding(false)} />
    </>
  );
}
