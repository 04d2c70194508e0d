import type { DatabaseOutage, KeyCheckOutcome, KeyCheckSource, Metrics, WebhookAttemptOutcome } from '@lfk/api';
import { type Backlog, type Database, OutboxEmail, WebhookDelivery } from '@lfk/db';
import type { AutoReplySkipReason } from '@lfk/vocabulary';
import { createServer } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Request durations, in seconds: from a cached key read to a slow export page. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A route that matched nothing is one label value, whatever URL was asked for. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * lfk's Prometheus metrics, on a registry of this server's own (several servers share a test
 * process). Counters are counted as the work is done (every request `app` answers, from the
 * start); queue depths, the pool and the outage are read when scraped.
 */
export class ServerMetrics implements Metrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #durations: Histogram<'method' | 'route'>;
  readonly #keyChecks: Counter<'outcome' | 'source'>;
  readonly #webhookAttempts: Counter<'outcome'>;
  readonly #exportsStreaming: Gauge;
  readonly #exportRows: Counter;
  readonly #autoRepliesSkipped: Counter;

  constructor(app: FastifyInstance, db: Database, outage: DatabaseOutage) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'lfk_' });
    this.#requests = new Counter({
      name: 'lfk_http_requests_total',
      help: 'Requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#durations = new Histogram({
      name: 'lfk_http_request_duration_seconds',
      help: 'Time to answer a request, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#keyChecks = new Counter({
      name: 'lfk_api_key_checks_total',
      help:
        'API keys presented as bearer credentials, by outcome (accepted, stopped, address_not_allowed, unknown, malformed, held_back) ' +
        'and where the answer came from (cache, database, none).',
      labelNames: ['outcome', 'source'],
      registers,
    });
    this.#webhookAttempts = new Counter({
      name: 'lfk_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (delivered, retrying, failed: no attempts left).',
      labelNames: ['outcome'],
      registers,
    });
    this.#exportsStreaming = new Gauge({
      name: 'lfk_exports_streaming',
      help: 'Submission exports streaming now from this process (at most LFK_EXPORTS_PER_PERSON per person).',
      registers,
    });
    this.#autoRepliesSkipped = new Counter({
      name: 'lfk_auto_replies_skipped_total',
      help:
        'Auto-replies a submission did not send, by reason: the address stopped them (stopped), it had its share (recipient_limit), ' +
        'or the form, its workspace or the account that set it had its share (form_limit, workspace_limit, account_limit).',
      labelNames: ['reason'],
      registers,
    });
    this.#exportRows = new Counter({
      name: 'lfk_export_rows_read_total',
      help: 'Submissions read from the database by exports; an export reads the next batch only when its reader has taken the last.',
      registers,
    });
    queueGauges('outbox_emails', 'Emails waiting in the outbox to be sent (retries included)', () => db.fork().getRepository(OutboxEmail).backlog(), registers);
    queueGauges(
      'webhook_deliveries',
      'Webhook deliveries waiting to be attempted (retries included; not those of a disabled endpoint)',
      () => db.fork().getRepository(WebhookDelivery).backlog(),
      registers,
    );
    new Gauge({
      name: 'lfk_database_connections',
      help: 'PostgreSQL pool connections, by state: open, idle, waiting (requests waiting for one), max.',
      labelNames: ['state'],
      registers,
      collect() {
        const use = db.poolUse();
        if (!use) return;
        for (const [state, value] of Object.entries(use)) this.set({ state }, value);
      },
    });
    new Gauge({
      name: 'lfk_database_up',
      help: '0 while this process finds the database unreachable (requests answer 503 service_unavailable), 1 otherwise.',
      registers,
      collect() {
        this.set(outage.current ? 0 : 1);
      },
    });
    app.addHook('onResponse', (request, reply, done) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE };
      this.#requests.inc({ ...labels, status: String(reply.statusCode) });
      this.#durations.observe(labels, reply.elapsedTime / 1000);
      done();
    });
  }

  /**
   * `GET /metrics`: on the API's own port (`port` null), or alone on a port of its own, which a
   * deployment keeps private (a listener with nothing else on it, not reachable through the API's).
   */
  serve(app: FastifyInstance, port: number | null): MetricsListener | null {
    const scrape = () => this.registry.metrics();
    const contentType = this.registry.contentType;
    if (port === null) {
      app.get('/metrics', async (_request, reply) => reply.type(contentType).send(await scrape()));
      return null;
    }
    const server = createServer((request, response) => {
      if (request.url?.split('?')[0] !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at GET /metrics.\n');
        return;
      }
      scrape().then(
        (text) => response.writeHead(200, { 'content-type': contentType }).end(request.method === 'HEAD' ? undefined : text),
        () => response.writeHead(500).end(),
      );
    });
    return {
      listen: (host) => new Promise((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve())),
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  }

  keyChecked(outcome: KeyCheckOutcome, source: KeyCheckSource): void {
    this.#keyChecks.inc({ outcome, source });
  }

  webhookAttempted(outcome: WebhookAttemptOutcome): void {
    this.#webhookAttempts.inc({ outcome });
  }

  exportsStreaming(change: 1 | -1): void {
    this.#exportsStreaming.inc(change);
  }

  exportRowsRead(rows: number): void {
    this.#exportRows.inc(rows);
  }

  autoReplySkipped(reason: AutoReplySkipReason): void {
    this.#autoRepliesSkipped.inc({ reason });
  }
}

/**
 * `lfk_<name>_waiting` and `lfk_<name>_oldest_age_seconds`, read from the database when scraped.
 * While the database is away they keep the values last read, and the scrape still answers.
 */
function queueGauges(name: string, help: string, read: () => Promise<Backlog>, registers: Registry[]): void {
  const readOrNull = () => read().catch(() => null);
  new Gauge({
    name: `lfk_${name}_waiting`,
    help: `${help}.`,
    registers,
    async collect() {
      const backlog = await readOrNull();
      if (backlog) this.set(backlog.depth);
    },
  });
  new Gauge({
    name: `lfk_${name}_oldest_age_seconds`,
    help: `How long the oldest of them has waited: ${help.charAt(0).toLowerCase()}${help.slice(1)}. 0 when none waits.`,
    registers,
    async collect() {
      const backlog = await readOrNull();
      if (backlog) this.set(backlog.oldestAt ? Math.max(0, (Date.now() - backlog.oldestAt.getTime()) / 1000) : 0);
    },
  });
}

export interface MetricsListener {
  listen(host: string): Promise<void>;
  close(): Promise<void>;
}
