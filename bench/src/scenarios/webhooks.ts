import { createServer, Agent as HttpAgent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLfkClient } from '@lfk/client';
import pg from 'pg';
import { percentile } from '../load.ts';
import type { BenchServer } from '../processes.ts';
import type { Row } from '../report.ts';
import type { Seed } from '../seed.ts';

/** A receiver on 127.0.0.1: when each event id first arrived, how many times each arrived, and how to answer. */
export interface Receiver {
  url: string;
  firstSeen: Map<string, number>;
  arrivals: Map<string, number>;
  requests: number;
  /** Fail every other request with 500 (the half-failing receiver). */
  failHalf: boolean;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    firstSeen: new Map(),
    arrivals: new Map(),
    requests: 0,
    failHalf: false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      receiver.requests++;
      if (receiver.failHalf && receiver.requests % 2 === 0) {
        res.writeHead(500).end();
        return;
      }
      if (!receiver.firstSeen.has(id)) receiver.firstSeen.set(id, performance.now());
      receiver.arrivals.set(id, (receiver.arrivals.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

export const eventIdOf = (submissionId: string) => `msg_${submissionId.slice('sub_'.length)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const submitAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });

/** One server-side submission; resolves with its id and when its 201 arrived. */
function submitOnce(url: string, key: string, body: string): Promise<{ id: string; at: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: submitAgent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        const at = performance.now();
        if (res.statusCode !== 201) return reject(new Error(`submission answered ${res.statusCode}: ${text}`));
        resolve({ id: (JSON.parse(text) as { id: string }).id, at });
      });
    });
    req.once('error', reject);
    req.end(body);
  });
}

async function addEndpoint(server: BenchServer, seeded: Seed, formId: string, url: string): Promise<string> {
  const owner = createLfkClient({ baseUrl: server.url, sessionToken: seeded.sessionToken });
  return (await owner.webhooks.create.mutate({ form_id: formId, url })).id;
}

/** A form of its own for each scenario, so no scenario's deliveries reach another's receiver. */
async function benchForm(server: BenchServer, seeded: Seed, name: string): Promise<string> {
  const withKey = createLfkClient({ baseUrl: server.url, apiKey: seeded.keys[0]!.key });
  const form = await withKey.forms.create.mutate({ name, schema: [{ name: 'n', type: 'number', required: true }], submission_mode: 'api_key' });
  return form.id;
}

/** What paced submissions came to: each acknowledged one's event id and when its 201 arrived, and the refusals. */
interface Paced {
  acknowledged: Map<string, number>;
  failures: unknown[];
}

/**
 * Server-side submissions to the form at `rate` a second, each to the next of `servers` in turn,
 * for as long as `more(sent)` says; resolves once every one has been answered.
 */
async function submitAtRate(servers: BenchServer[], formId: string, key: string, rate: number, more: (sent: number) => boolean, paced: Paced): Promise<void> {
  const started = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let sent = 0; more(sent); sent++) {
    const wait = started + (sent * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    const server = servers[sent % servers.length]!;
    const done = submitOnce(`${server.url}/v1/forms/${formId}/submissions`, key, `{"n":${sent}}`)
      .then(({ id, at }) => void paced.acknowledged.set(eventIdOf(id), at))
      .catch((error) => void paced.failures.push(error));
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  }
  await Promise.all(inFlight);
}

/**
 * Scenario 10: two replicas, a local receiver, submissions at `rate` a second for `seconds`, each
 * to one replica in turn: from each submission's 201 to the receiver having its event.
 */
export async function webhookLatency(a: BenchServer, b: BenchServer, seeded: Seed, notes: string[], rate: number, seconds: number): Promise<Row> {
  const receiver = await startReceiver();
  try {
    const formId = await benchForm(a, seeded, 'Webhook latency');
    await addEndpoint(a, seeded, formId, receiver.url);
    const { acknowledged, failures }: Paced = { acknowledged: new Map(), failures: [] };
    const started = performance.now();
    await submitAtRate([a, b], formId, seeded.keys[1]!.key, rate, (sent) => sent < rate * seconds, { acknowledged, failures });
    const sendSeconds = (performance.now() - started) / 1000;
    await until('every acknowledged submission to reach the receiver', () => [...acknowledged.keys()].every((id) => receiver.firstSeen.has(id)), 120_000);
    // Anything late (a duplicate) has a moment to arrive before counting.
    await sleep(2000);
    const latencies = [...acknowledged].map(([id, at]) => Math.max(0, receiver.firstSeen.get(id)! - at)).sort((x, y) => x - y);
    const duplicates = [...receiver.arrivals.values()].filter((n) => n > 1).length;
    const lost = [...acknowledged.keys()].filter((id) => !receiver.firstSeen.has(id)).length;
    const p99 = percentile(latencies, 99);
    notes.push(
      `Scenario 10: ${acknowledged.size} submissions in ${sendSeconds.toFixed(1)} s (${(acknowledged.size / sendSeconds).toFixed(0)}/s asked ${rate}/s), ` +
        `half to each replica; received ${receiver.firstSeen.size}, ${duplicates} more than once, ${lost} lost, ${failures.length} submissions refused; ` +
        `201 → received: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms.`,
    );
    return {
      scenario: `10 · webhook: 201 → receiver, ${rate}/s for ${seconds} s, two replicas`,
      engine: 'PostgreSQL',
      p50Ms: percentile(latencies, 50),
      p99Ms: p99,
      errors: failures.length + lost + duplicates,
      target: 'p99 ≤ 250 ms, each once, 0 lost',
      met: p99 <= 250 && lost === 0 && duplicates === 0 && failures.length === 0,
    };
  } finally {
    await receiver.close();
  }
}

/** One statement on the benchmark's database, on a connection of its own (the servers' pools are theirs). */
async function runOnce(databaseUrl: string, statement: string, params: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement, params);
  } finally {
    await client.end();
  }
}

/**
 * Queues `count` deliveries to one endpoint while it is disabled (they wait), as the database
 * holds them after a submission burst; enabling it makes them due at once.
 */
async function queueWaiting(databaseUrl: string, endpointId: string, count: number): Promise<void> {
  const tag = Date.now().toString(16);
  await runOnce(
    databaseUrl,
    `insert into webhook_deliveries (id, endpoint_id, url, event_id, type, payload, status, attempts, attempt_count, next_attempt_at, created_at)
       select 'whd_' || lpad($2 || to_hex(i), 26, '0'), endpoint.id, endpoint.url, 'msg_' || lpad($2 || to_hex(i), 26, '0'), 'submission.created',
              '{"type":"submission.created","timestamp":"2026-11-25T00:00:00.000Z","data":{"n":' || i || '}}', 'pending', '[]', 0, null, now()
       from generate_series(1, $3::int) as i, webhook_endpoints endpoint where endpoint.id = $1`,
    [endpointId, tag, count],
  );
}

/**
 * A form with one endpoint to `receiver`, `count` deliveries waiting for it (queued while it was
 * disabled), and then the endpoint enabled: they are all due at once. Answers when that was.
 */
async function queueAndRelease(a: BenchServer, seeded: Seed, databaseUrl: string, receiver: Receiver, count: number, name: string): Promise<number> {
  const formId = await benchForm(a, seeded, name);
  const endpointId = await addEndpoint(a, seeded, formId, receiver.url);
  const owner = createLfkClient({ baseUrl: a.url, sessionToken: seeded.sessionToken });
  await owner.webhooks.update.mutate({ form_id: formId, webhook_id: endpointId, enabled: false });
  await queueWaiting(databaseUrl, endpointId, count);
  const released = performance.now();
  await owner.webhooks.update.mutate({ form_id: formId, webhook_id: endpointId, enabled: true });
  return released;
}

/**
 * Scenario 11: `count` queued deliveries to one endpoint drained by two replicas, against a fast
 * receiver, and against one that fails every other request (attempts a second; the failed ones
 * are retried about 5 s later).
 */
export async function webhookDrain(a: BenchServer, seeded: Seed, databaseUrl: string, notes: string[], count: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const failHalf of [false, true]) {
    const receiver = await startReceiver();
    receiver.failHalf = failHalf;
    try {
      const released = await queueAndRelease(a, seeded, databaseUrl, receiver, count, failHalf ? 'Drain, half failing' : 'Drain');
      await until(`${count} attempts`, () => receiver.requests >= count, 300_000);
      const seconds = (performance.now() - released) / 1000;
      const perSecond = count / seconds;
      notes.push(
        `Scenario 11${failHalf ? ' (receiver failing half)' : ''}: ${count} queued deliveries to one endpoint, ` +
          `${count} attempts in ${seconds.toFixed(1)} s across two replicas` +
          (failHalf ? `; ${receiver.firstSeen.size} succeeded on that pass, the others are retried about 5 s later.` : '.'),
      );
      rows.push({
        scenario: `11 · webhook drain, ${count} queued, one endpoint${failHalf ? ', receiver failing half (attempts/s)' : ''}`,
        engine: 'PostgreSQL',
        requestsPerSecond: perSecond,
        ...(failHalf ? {} : { target: '≥ 1,000/s', met: perSecond >= 1000 }),
      });
    } finally {
      await receiver.close();
    }
  }
  return rows;
}

/**
 * Scenario 12: the same drain with replica B killed (SIGKILL) halfway. Every delivery still
 * arrives: B's held ones once their lock lapses (60 s), taken by A. Deliveries that arrive twice
 * (B's attempts in flight at the kill) carry the same webhook-id both times, since they are
 * counted by it.
 */
export async function webhookDrainWithKill(_a: BenchServer, b: BenchServer, seeded: Seed, databaseUrl: string, notes: string[], count: number): Promise<Row> {
  const receiver = await startReceiver();
  try {
    // Released through B, which is woken at once and so holds deliveries when it is killed.
    const released = await queueAndRelease(b, seeded, databaseUrl, receiver, count, 'Drain, a replica killed');
    await until('half the deliveries', () => receiver.requests >= count / 2, 300_000);
    process.kill(b.pid, 'SIGKILL');
    const killedAt = performance.now();
    const requestsAtKill = receiver.requests;
    await until(`all ${count} deliveries`, () => receiver.firstSeen.size >= count, 300_000);
    await sleep(2000);
    const seconds = (performance.now() - released) / 1000;
    const duplicates = [...receiver.arrivals.values()].filter((n) => n > 1).length;
    // What B held arrives only once its lock lapses (60 s): counted as what came 30 s or more after the kill.
    const late = [...receiver.firstSeen.values()].filter((at) => at - killedAt >= 30_000).length;
    notes.push(
      `Scenario 12: B killed after ${requestsAtKill} of ${count} requests; all ${receiver.firstSeen.size} delivered in ${seconds.toFixed(1)} s; ` +
        `${late} of them (B's, held at the kill) arrived once their 60 s lock lapsed; ` +
        `${duplicates} arrived twice (in flight at the kill), each with one webhook-id.`,
    );
    return {
      scenario: `12 · webhook drain, replica killed mid-drain (${count})`,
      engine: 'PostgreSQL',
      errors: count - receiver.firstSeen.size,
      target: 'all delivered, duplicates only in flight',
      met: receiver.firstSeen.size === count,
    };
  } finally {
    await receiver.close();
  }
}

/** `count` real submissions to the form, made in the minute before now, written at once as a burst would leave them. */
async function seedSubmissions(databaseUrl: string, formId: string, count: number): Promise<void> {
  const tag = Date.now().toString(16);
  await runOnce(
    databaseUrl,
    `insert into submissions (id, form_id, data, source, status, created_at)
       select 'sub_' || lpad($2 || to_hex(i), 26, '0'), $1, ('{"n":' || i || '}')::json, 'api_key', 'ok',
              now() - interval '60 seconds' + i * interval '1 millisecond'
       from generate_series(1, $3::int) as i`,
    [formId, tag, count],
  );
}

/**
 * Scenario 19: a recover of `count` events to one endpoint (a fast receiver), on two replicas,
 * while another endpoint of the same workspace gets submissions at `rate` a second, half through
 * each replica: the recover's events a second (from asking to the last arriving), and the other
 * endpoint's 201 → receiver latency meanwhile.
 */
export async function webhookRecover(
  a: BenchServer,
  b: BenchServer,
  seeded: Seed,
  databaseUrl: string,
  notes: string[],
  count: number,
  rate: number,
): Promise<Row[]> {
  const recovering = await startReceiver();
  const other = await startReceiver();
  try {
    const owner = createLfkClient({ baseUrl: a.url, sessionToken: seeded.sessionToken });
    const recoverForm = await benchForm(a, seeded, 'Recover');
    const recoverEndpoint = await addEndpoint(a, seeded, recoverForm, recovering.url);
    const otherForm = await benchForm(a, seeded, 'Delivered during a recover');
    await addEndpoint(a, seeded, otherForm, other.url);
    await seedSubmissions(databaseUrl, recoverForm, count);

    const { acknowledged, failures }: Paced = { acknowledged: new Map(), failures: [] };
    let sending = true;
    const load = submitAtRate([a, b], otherForm, seeded.keys[1]!.key, rate, () => sending, { acknowledged, failures });
    // The other endpoint's deliveries flow for a moment first.
    await sleep(2000);
    const asked = performance.now();
    const recovered = await owner.webhooks.recover.mutate({
      form_id: recoverForm,
      webhook_id: recoverEndpoint,
      since: new Date(Date.now() - 120_000).toISOString(),
    });
    const answered = performance.now();
    await until(`the ${count} recovered events`, () => recovering.firstSeen.size >= count, 300_000);
    const seconds = (performance.now() - asked) / 1000;
    const recoverEnded = performance.now();
    sending = false;
    await load;
    await until('every acknowledged submission to reach its receiver', () => [...acknowledged.keys()].every((id) => other.firstSeen.has(id)), 120_000);
    // Only what was acknowledged while the recover's events were being delivered.
    const during = [...acknowledged].filter(([, at]) => at >= asked && at <= recoverEnded);
    const latencies = during.map(([id, at]) => Math.max(0, other.firstSeen.get(id)! - at)).sort((x, y) => x - y);
    const perSecond = recovered.queued / seconds;
    const p99 = percentile(latencies, 99);
    const duplicates = [...recovering.arrivals.values()].filter((n) => n > 1).length;
    notes.push(
      `Scenario 19: a recover of ${count} events (${recovered.queued} queued, answered in ${((answered - asked) / 1000).toFixed(1)} s) ` +
        `reached a fast receiver in ${seconds.toFixed(1)} s across two replicas, ${duplicates} twice; ` +
        `meanwhile ${latencies.length} submissions at ${rate}/s to another endpoint of the same workspace: ` +
        `201 → received p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms; ` +
        `${failures.length} refused.`,
    );
    return [
      {
        scenario: `19 · webhook recover, ${count} events, one endpoint, two replicas (events/s)`,
        engine: 'PostgreSQL',
        requestsPerSecond: perSecond,
        errors: count - recovering.firstSeen.size,
        target: '≥ 1,000/s',
        met: perSecond >= 1000 && recovering.firstSeen.size === count,
      },
      {
        scenario: `19 · webhook: another endpoint's 201 → receiver during that recover, ${rate}/s`,
        engine: 'PostgreSQL',
        p50Ms: percentile(latencies, 50),
        p99Ms: p99,
        errors: failures.length,
        target: 'p99 ≤ 250 ms',
        met: p99 <= 250 && failures.length === 0,
      },
    ];
  } finally {
    await recovering.close();
    await other.close();
  }
}

/** A receiver on 127.0.0.1 that takes each request and never answers (a dead receiver); closing it cuts them all. */
async function startHangingReceiver(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const server = createServer((req) => {
    requests++;
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The review's attack: forms of one new workspace, each with five endpoints to a receiver that never answers. */
const ATTACK_FORMS = 14;
const ATTACK_SUBMISSIONS_PER_FORM = 16;

/**
 * Scenario 15: one workspace's webhooks cannot starve another's, on one replica (1,024 slots), as
 * the review found it. A new account makes 14 forms with 5 endpoints each to a receiver that never
 * answers and sends 16 submissions to each (1,120 deliveries, each attempt held 10 s, then
 * retried), and goes on sending one a second to each form while another workspace's submissions go
 * at `rate` a second for `seconds` to a form with one endpoint to a fast receiver: from each of
 * those submissions' 201 to its receipt. Also the most the attacking workspace held in flight,
 * sampled from the queue.
 */
export async function webhookFairness(a: BenchServer, seeded: Seed, databaseUrl: string, notes: string[], rate: number, seconds: number): Promise<Row> {
  const dead = await startHangingReceiver();
  const receiver = await startReceiver();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const attackerForms: { formId: string; endpointIds: string[] }[] = [];
  const anonymous = createLfkClient({ baseUrl: a.url });
  const attackerEmail = `attacker-${Date.now().toString(36)}@example.com`;
  const signedUp = await anonymous.auth.signup.mutate({ email: attackerEmail, password: 'benchmark password, long enough' });
  // Keys and webhooks need a confirmed address.
  await a.confirmAccount(attackerEmail);
  const attacker = createLfkClient({ baseUrl: a.url, sessionToken: signedUp.session_token });
  try {
    const attackerKey = (await attacker.apiKeys.create.mutate({ workspace_id: signedUp.workspace.id, name: 'attack' })).key;
    const withAttackerKey = createLfkClient({ baseUrl: a.url, apiKey: attackerKey });
    for (let f = 0; f < ATTACK_FORMS; f++) {
      const form = await withAttackerKey.forms.create.mutate({
        name: `Attack ${f}`,
        schema: [{ name: 'n', type: 'number', required: true }],
        submission_mode: 'api_key',
      });
      const endpointIds: string[] = [];
      for (let e = 0; e < 5; e++) endpointIds.push((await withAttackerKey.webhooks.create.mutate({ form_id: form.id, url: dead.url })).id);
      attackerForms.push({ formId: form.id, endpointIds });
    }
    const formId = await benchForm(a, seeded, 'Webhook fairness');
    await addEndpoint(a, seeded, formId, receiver.url);

    const attack = (server: BenchServer, form: string, n: number) => submitOnce(`${server.url}/v1/forms/${form}/submissions`, attackerKey, `{"n":${n}}`);
    const burst: Promise<unknown>[] = [];
    for (const [i, { formId: attacked }] of attackerForms.entries()) {
      for (let n = 0; n < ATTACK_SUBMISSIONS_PER_FORM; n++) burst.push(attack(a, attacked, i * 100 + n));
    }
    await Promise.all(burst);
    // The dead receiver holds what it was given before the other workspace starts.
    await until('the dead receiver to hold attempts', () => dead.requests() > 0, 30_000);

    const heldInFlight = async () => {
      const { rows } = await db.query<{ n: string }>(
        `select count(*) as n from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id join forms f on f.id = e.form_id
         where f.workspace_id = $1 and d.status = 'pending' and d.locked_until > now()`,
        [signedUp.workspace.id],
      );
      return Number(rows[0]!.n);
    };
    let mostInFlight = await heldInFlight();
    const sampler = setInterval(
      () =>
        void heldInFlight().then(
          (n) => (mostInFlight = Math.max(mostInFlight, n)),
          () => {},
        ),
      500,
    );

    const key = seeded.keys[2]!.key;
    const acknowledged = new Map<string, number>();
    const failures: unknown[] = [];
    const pending = new Set<Promise<void>>();
    const track = (p: Promise<void>) => {
      pending.add(p);
      void p.finally(() => pending.delete(p));
    };
    const started = performance.now();
    const total = rate * seconds;
    for (let sent = 0; sent < total; sent++) {
      const due = started + (sent * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      track(
        submitOnce(`${a.url}/v1/forms/${formId}/submissions`, key, `{"n":${sent}}`)
          .then(({ id, at }) => void acknowledged.set(eventIdOf(id), at))
          .catch((error) => void failures.push(error)),
      );
      // The attack goes on: one more submission to each of its forms every second.
      if (sent % rate === 0)
        for (const { formId: attacked } of attackerForms)
          track(
            attack(a, attacked, sent).then(
              () => {},
              () => {},
            ),
          );
    }
    await Promise.all(pending);
    await until('every acknowledged submission to reach the receiver', () => [...acknowledged.keys()].every((id) => receiver.firstSeen.has(id)), 120_000);
    clearInterval(sampler);
    const latencies = [...acknowledged].map(([id, at]) => Math.max(0, receiver.firstSeen.get(id)! - at)).sort((x, y) => x - y);
    const p99 = percentile(latencies, 99);
    const lost = [...acknowledged.keys()].filter((id) => !receiver.firstSeen.has(id)).length;
    notes.push(
      `Scenario 15: a workspace with ${ATTACK_FORMS} forms × 5 endpoints to a receiver that never answers, ` +
        `${ATTACK_FORMS * ATTACK_SUBMISSIONS_PER_FORM} submissions at once ` +
        `(${ATTACK_FORMS * ATTACK_SUBMISSIONS_PER_FORM * 5} deliveries) and ${ATTACK_FORMS} more a second; it held at most ${mostInFlight} in flight ` +
        `(the dead receiver got ${dead.requests()} requests). Meanwhile another workspace's ${acknowledged.size} submissions (${rate}/s): ` +
        `201 → received p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms; ` +
        `${lost} lost, ${failures.length} refused.`,
    );
    return {
      scenario: `15 · webhook: another workspace's 201 → receiver while one workspace's ${ATTACK_FORMS * 5} endpoints hang, one replica`,
      engine: 'PostgreSQL',
      p50Ms: percentile(latencies, 50),
      p99Ms: p99,
      errors: failures.length + lost,
      target: 'p99 ≤ 250 ms, 0 lost',
      met: p99 <= 250 && lost === 0 && failures.length === 0,
    };
  } finally {
    // The attacking endpoints are disabled, so their retries do not run on into later scenarios.
    for (const { formId: attacked, endpointIds } of attackerForms) {
      for (const id of endpointIds) await attacker.webhooks.update.mutate({ form_id: attacked, webhook_id: id, enabled: false }).catch(() => {});
    }
    await db.end();
    await dead.close();
    await receiver.close();
  }
}

/** A receiver on 127.0.0.1 that answers 204 mostly, and now and then 500 (7 %), a cut connection (3 %) or nothing at all (1 %). */
async function startFlakyReceiver(): Promise<{ url: string; answers: Record<'ok' | 'failed' | 'cut' | 'hung', number>; close(): Promise<void> }> {
  const answers = { ok: 0, failed: 0, cut: 0, hung: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const roll = Math.random();
      if (roll < 0.07) {
        answers.failed++;
        res.writeHead(500).end('failing');
      } else if (roll < 0.1) {
        answers.cut++;
        req.socket.resetAndDestroy();
      } else if (roll < 0.11) {
        answers.hung++;
      } else {
        answers.ok++;
        res.writeHead(204).end();
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    answers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const MIB = 2 ** 20;
/** How long the soak's load runs before its baseline is taken: the delivery engine's working set is reached by then. */
const SOAK_WARM_UP_S = 15;
const SOAK_SAMPLE_EVERY_S = 15;

/**
 * Scenario 16: memory under a soak with webhooks, on one replica. Four new workspaces, two forms
 * each with one endpoint to a receiver that fails, cuts or hangs now and then; server-side
 * submissions at `rate` a second spread over the eight forms, every one delivered (and the failed
 * ones retried). RSS and the live heap (after a full collection) once the load has run
 * `SOAK_WARM_UP_S`, then every `SOAK_SAMPLE_EVERY_S` for `seconds`: what grows without bound shows
 * as a live heap that keeps rising.
 */
export async function webhookSoak(a: BenchServer, notes: string[], rate: number, seconds: number): Promise<Row[]> {
  const receiver = await startFlakyReceiver();
  const endpoints: { client: ReturnType<typeof createLfkClient>; formId: string; endpointId: string }[] = [];
  try {
    const targets: { url: string; key: string }[] = [];
    for (let w = 0; w < 4; w++) {
      const email = `soak-${w}-${Date.now().toString(36)}@example.com`;
      const signedUp = await createLfkClient({ baseUrl: a.url }).auth.signup.mutate({ email, password: 'benchmark password, long enough' });
      // Keys and webhooks need a confirmed address.
      await a.confirmAccount(email);
      const owner = createLfkClient({ baseUrl: a.url, sessionToken: signedUp.session_token });
      const key = (await owner.apiKeys.create.mutate({ workspace_id: signedUp.workspace.id, name: 'soak' })).key;
      const withKey = createLfkClient({ baseUrl: a.url, apiKey: key });
      for (let f = 0; f < 2; f++) {
        const form = await withKey.forms.create.mutate({
          name: `Soak ${w}.${f}`,
          schema: [{ name: 'n', type: 'number', required: true }],
          submission_mode: 'api_key',
        });
        const endpointId = (await withKey.webhooks.create.mutate({ form_id: form.id, url: receiver.url })).id;
        endpoints.push({ client: owner, formId: form.id, endpointId });
        targets.push({ url: `${a.url}/v1/forms/${form.id}/submissions`, key });
      }
    }
    const samples: { at: number; rss: number; live: number; resources: number }[] = [];
    const failures: unknown[] = [];
    const pending = new Set<Promise<void>>();
    const started = performance.now();
    const total = rate * (SOAK_WARM_UP_S + seconds);
    let nextSample = SOAK_WARM_UP_S;
    for (let sent = 0; sent < total; sent++) {
      const due = started + (sent * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const target = targets[sent % targets.length]!;
      const done = submitOnce(target.url, target.key, `{"n":${sent}}`).then(
        () => {},
        (error) => void failures.push(error),
      );
      pending.add(done);
      void done.finally(() => pending.delete(done));
      if ((performance.now() - started) / 1000 >= nextSample) {
        nextSample += SOAK_SAMPLE_EVERY_S;
        samples.push({ at: (performance.now() - started) / 1000, rss: a.rssBytes(), ...(await a.heap()) });
      }
    }
    await Promise.all(pending);
    samples.push({ at: (performance.now() - started) / 1000, rss: a.rssBytes(), ...(await a.heap()) });
    const first = samples[0]!;
    const last = samples.at(-1)!;
    const liveGrowth = (Math.max(...samples.map((s) => s.live)) - first.live) / MIB;
    const { ok, failed, cut, hung } = receiver.answers;
    notes.push(
      `Scenario 16: ${total} submissions at ${rate}/s over ${SOAK_WARM_UP_S + seconds} s to 8 forms with an endpoint each, the receiver answering ` +
        `${ok} × 204, ${failed} × 500, cutting ${cut} connections and leaving ${hung} requests unanswered (retries included); ` +
        `${failures.length} submissions refused. ` +
        `RSS and live heap (MiB), and the sockets and timers Node kept open, from ${SOAK_WARM_UP_S} s: ` +
        `${samples.map((s) => `${s.at.toFixed(0)} s ${(s.rss / MIB).toFixed(0)}/${(s.live / MIB).toFixed(1)} (${s.resources})`).join(', ')}.`,
    );
    return [
      {
        scenario: `16 · webhook soak, ${rate}/s for ${seconds} s, failing receiver: RSS growth`,
        engine: 'PostgreSQL',
        errors: failures.length,
        ratio: last.rss / first.rss,
        target: '≤ 1.10',
        met: last.rss / first.rss <= 1.1,
      },
      { scenario: '16 · webhook soak: live heap growth (MiB)', engine: 'PostgreSQL', ratio: liveGrowth, target: '≤ 16, flat', met: liveGrowth <= 16 },
    ];
  } finally {
    // Their retries do not run on after the scenario.
    for (const { client, formId, endpointId } of endpoints)
      await client.webhooks.update.mutate({ form_id: formId, webhook_id: endpointId, enabled: false }).catch(() => {});
    await receiver.close();
  }
}
