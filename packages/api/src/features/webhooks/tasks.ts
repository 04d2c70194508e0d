import type { BackgroundTask } from '../../infrastructure/background-task.ts';
import { QueueWorker } from '../../infrastructure/queue-worker.ts';
import { type DeliveryJobDeps, type DeliveryJobSettings, deliveryJob } from './delivery-job.ts';

/** The webhook worker's settings: the delivery job's, and the queue engine's around it. */
export interface WebhookWorkerSettings extends DeliveryJobSettings {
  /** How often to look for due deliveries when nobody wakes the worker. */
  pollMs: number;
  /** Deliveries taken per claim. */
  batchSize: number;
  /**
   * Deliveries worked on at once by one replica: each an open request, cheap; many, so that a few
   * dead receivers holding theirs leave room for every other.
   */
  concurrency: number;
}

/** The 'webhook worker': webhook deliveries on the shared queue engine. */
export function webhookWorker(deps: DeliveryJobDeps, settings: WebhookWorkerSettings): BackgroundTask {
  const { pollMs, batchSize, concurrency, ...job } = settings;
  return new QueueWorker(deliveryJob(deps, job), deps.log, { name: 'webhook worker', pollMs, batchSize, concurrency });
}
