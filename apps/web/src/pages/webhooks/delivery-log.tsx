import { useQuery } from '@tanstack/react-query';
import { trpc } from '../../api/trpc.ts';
import { LoadedList } from '../../components/states.tsx';
import { DeliveryItem } from './delivery-item.tsx';

const DELIVERIES_SHOWN = 20;

/** An endpoint's deliveries, newest first: the last few, refreshed on demand. */
export function DeliveryLog({ formId, webhookId }: { formId: string; webhookId: string }) {
  const deliveries = useQuery(trpc.webhooks.deliveries.queryOptions({ form_id: formId, webhook_id: webhookId, limit: DELIVERIES_SHOWN }));
  return (
    <details className="delivery-log">
      <summary>Deliveries</summary>
      <div className="toolbar">
        <p className="muted">Newest first, the last {DELIVERIES_SHOWN}.</p>
        <button type="button" className="secondary" onClick={() => deliveries.refetch()}>
          Refresh
        </button>
      </div>
      <LoadedList query={deliveries} what="deliveries" empty={<p className="muted">No deliveries yet.</p>}>
        {(page) => (
          <ol className="deliveries">
            {page.data.map((delivery) => (
              <li key={delivery.id}>
                <DeliveryItem formId={formId} webhookId={webhookId} delivery={delivery} />
              </li>
            ))}
          </ol>
        )}
      </LoadedList>
    </details>
  );
}
