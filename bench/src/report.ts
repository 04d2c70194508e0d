import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, type } from 'node:os';

export interface Row {
  scenario: string;
  engine: string;
  requestsPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  errors?: number;
  /** To the baseline measured in the same run (what a ratio means is said by `target`). */
  ratio?: number;
  /** The lowest and highest per-round ratio of a comparison. */
  ratioRange?: [number, number];
  target?: string;
  met?: boolean;
}

const dash = '—';
const fixed = (value: number | undefined, digits: number) => (value === undefined ? dash : value.toFixed(digits));
const HEADER = ['scenario', 'engine', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'ratio', 'rounds', 'target', 'met'];

export function table(rows: Row[]): string {
  const cells = rows.map((r) => [
    r.scenario,
    r.engine,
    r.requestsPerSecond === undefined ? dash : Math.round(r.requestsPerSecond).toString(),
    fixed(r.p50Ms, r.p50Ms !== undefined && r.p50Ms < 10 ? 2 : 0),
    fixed(r.p99Ms, r.p99Ms !== undefined && r.p99Ms < 10 ? 2 : 0),
    r.errors === undefined ? dash : String(r.errors),
    fixed(r.ratio, 2),
    r.ratioRange ? `${r.ratioRange[0].toFixed(2)}–${r.ratioRange[1].toFixed(2)}` : dash,
    r.target ?? dash,
    r.met === undefined ? dash : r.met ? 'yes' : '**no**',
  ]);
  const line = (values: string[]) => `| ${values.join(' | ')} |`;
  return [line(HEADER), line(HEADER.map(() => '---')), ...cells.map(line)].join('\n');
}

export function machine(): string {
  const cpu = cpus();
  return (
    `${type()} ${process.arch}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`
  );
}

export interface Report {
  rows: Row[];
  notes: string[];
  command: string;
  settings: string;
  startedAt: Date;
  /** The machine's 1-minute load average when the run started and when it ended. */
  load: [number, number];
}

/** The page's explanation of every scenario, the same whatever was run. */
const HOW_TO_READ = `## How to read it

- Every scenario drives a real lfk server (\`createServer\`, as \`npm start\` builds it) in a process of
  its own, from this process, with autocannon over HTTP/1.1 keep-alive to 127.0.0.1. The server logs at
  \`warn\` and its rate limits are off (they would answer the load with 429s).
- **ratio** is requests per second against the baseline measured on the same server in the same run:
  after a warm-up of both, baseline and subject run in turns for the rounds of the settings; the
  ratio is the median of the rounds' ratios, **rounds** the lowest and highest of them (the run's
  noise), the other figures are means over the rounds. For
  scenario 6 it is RSS after ÷ RSS before.
- The load generator shares the machine with the server, so at tens of thousands of requests per
  second req/s says as much about it as about the server. The notes give the server's own CPU time
  per request for scenarios 1–3 (from /proc), which does not depend on that.
- autocannon records latencies in whole milliseconds; p50/p99 below 1 ms read as 0 or 1. Scenario
  3's p50/p99 come from a probe timed to the microsecond instead (see the notes).
- 1. \`GET /v1/forms/{id}\` with a valid key, against the same procedure with authentication bypassed
  (\`/bench/forms/{id}\`, a route the benchmark adds to the server it measures). Target ≥ 0.90.
- 2. A key whose checksum is wrong, against \`/bench/unauthorized\`, which only answers the same 401.
  Target ≥ 0.95, and no database statement (the benchmark counts every statement the server sends).
- 3. A well-formed unknown key against a revoked one: they must not be told apart by timing. Met
  when a two-sample Kolmogorov–Smirnov test on the probe's latencies cannot tell them apart at 1 %.
- 4. \`POST /v1/forms/{id}/submissions\` to an \`api_key\`-mode form with a key; each one is stored.
  To a form that notifies its owner (each submission queues an email, which the sender sends:
  printed, as without \`SMTP_URL\`), and to one that notifies nobody and has no webhook.
- 5. Two server processes on one PostgreSQL: revoke through A, poll through B until it answers 401;
  the time runs from the revoke request being sent. 50 revocations. Target p99 ≤ 100 ms.
- 6. Server RSS after a warm-up, and after 200 000 more key-authenticated requests. Target ≤ 1.10.
  Then, in the ratio column, RSS in MiB 2 s after the load scenarios, RSS steady 15 s after them
  (by then the server has fallen idle and given back the heap the load grew: idle-memory-trim.ts),
  and the most it ever was (the kernel's high-water mark, start-up and the load scenarios before
  this one included). Targets (issue 52's): embedded steady ≤ 300 and peak ≤ 450; on PostgreSQL,
  steady and peak ≤ 300. Both run with the Node flags \`npm start\` gives them
  (apps/server/embedded.node-flags, apps/server/postgres.node-flags).
- 7. Start-up: \`npm start\`'s command (apps/server/bin/start.sh) until \`/readyz\` answers 200 on an
  existing embedded database; \`lfk --help\`; \`lfk keys list\` against a running server. Median (p50)
  and slowest (p99 column) of 10; the targets are on the median.
- 8. lfk against the **lower bound** (bench/src/lower-bound/server.ts), on the same PostgreSQL, the
  same loads sent to each in turns: what a careful engineer would write by hand for these routes,
  with Fastify and \`pg\`: the sha256 of the bearer, a \`Map\` from key hash to workspace and one
  from form id to form row, each kept for the key cache's TTL, and named (prepared) statements. A
  form read is one \`SELECT\` of the columns lfk reads, answered in lfk's shape. A submission is
  checked by lfk's rules (mode, key or origin, open, honeypot, and lfk's own \`validateSubmission\`)
  and written in one statement (with its outbox row when the form notifies; the forms submitted to
  here notify nobody and have no webhook). It checks no rate limit, records no last use, and would
  miss a revocation or a form change for up to 30 s: it is a floor, never shipped. Two submission
  loads: a key's JSON, and an HTML form post (urlencoded, from an allowed origin, honeypot empty,
  answered with a 303 to the form's redirect). The ratio is lfk's req/s ÷ its; the notes give both
  servers' CPU per request, and PostgreSQL's (every \`postgres\` process on the machine, from /proc).
  Targets: form read ≥ 0.70 and CPU ≤ 1.6×; bad keys ≥ 0.85; submissions ≥ 0.60 and PostgreSQL
  CPU ≤ 1.5×.
- 9. lfk's form read (scenario 1's req/s) and keyed submission (scenario 4's) on the embedded
  database ÷ on PostgreSQL. Target ≥ 0.50 each.
- 10. Webhooks, two replicas on PostgreSQL and a receiver on 127.0.0.1 (in this process): server-side
  submissions at 200 a second for 60 s (BENCH_WEBHOOK_RATE, BENCH_WEBHOOK_SECONDS), each to one
  replica in turn, to a form with one endpoint; the time from each submission's 201 to the
  receiver first having its event (by \`webhook-id\`). Target p99 ≤ 250 ms, every event received
  exactly once, none lost.
- 11. 10 000 deliveries (BENCH_WEBHOOK_DRAIN) queued for one endpoint while it was disabled (written
  straight into the queue, as a burst leaves them), then the endpoint enabled: attempts a second
  until all were made, by both replicas. Against a receiver answering 204 (target ≥ 1 000/s), and
  one failing every other request (its failures are retried about 5 s later, not counted here).
- 12. The same drain with replica B killed (SIGKILL) halfway: every delivery must still arrive (B's
  held ones once their 60 s lock lapses, taken by A); a delivery that arrives twice was in flight at
  the kill, and carries the same \`webhook-id\` both times.
- 13. A form's submissions exported as CSV, 10 000 then 100 000 rows: rows a second, time to the
  first byte, the server's RSS and live heap growth while it streams (target: live heap ≤ 16 MiB, flat).
- 14. \`POST /v1/auth/password-resets\` for an account's address and for addresses without one,
  alternating, one at a time: the answer must not tell them apart by its time. Met when a two-sample
  Kolmogorov–Smirnov test on the two sets of latencies cannot tell them apart at 1 %.
- 15. One workspace's webhooks cannot starve another's: a new account makes 14 forms with 5
  endpoints each to a receiver on 127.0.0.1 that never answers, sends 16 submissions to each at once
  (1,120 deliveries, each attempt held 10 s) and one more to each form every second; meanwhile the
  seeded workspace submits 20 a second for 30 s (BENCH_FAIRNESS_RATE, BENCH_FAIRNESS_SECONDS) to a
  form with one endpoint to a fast receiver, all on one replica (its 1,024 delivery slots, which the
  attack filled before the cap): the time from each of those submissions' 201 to its receipt. Target p99 ≤ 250 ms, none lost. The notes give the most the
  attacking workspace held in flight (its cap, \`LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE\`, is 32).
- 16. Memory under a soak with webhooks, on one replica: four new workspaces with two forms each,
  each form with an endpoint to a receiver on 127.0.0.1 that answers 500 to 7 % of requests, cuts
  3 % of connections and never answers 1 % (their attempts end at the 10 s timeout), the rest 204;
  server-side submissions at 200 a second (BENCH_WEBHOOK_RATE) for 15 s of warm-up and then 120 s
  (BENCH_SOAK_SECONDS), every one delivered and the failed ones retried. RSS after the warm-up
  against at the end (target ≤ 1.10), and the live heap (after a full collection, every 15 s; target
  ≤ 16 MiB above its first sample, flat): something kept per delivery, endpoint or connection would
  make it climb.
- 17. Uploads, on the embedded database, on each backend: the data directory, and S3 against the
  test world's s3rver (\`startS3Server\`, in its own process). 10 MiB files, 8 at once over 8
  kept-alive connections (undici), multipart/form-data to an \`api_key\` form with a key, in turns
  with the **baseline** after a warm-up of both: BENCH_UPLOADS files a run (32), BENCH_UPLOAD_ROUNDS
  turns (3); MB/s is 10⁶ bytes of file a second, the ratio the median of the turns' lfk ÷ baseline,
  p50/p99 one upload's time. The baseline (bench/src/upload-baseline/server.ts) takes the same
  request by hand, with node:http and the multipart parser lfk uses (\`@fastify/busboy\`), and stores
  the file as durably as lfk: for the directory, streamed into a new file of a folder on the same
  disk, the file and the folder fsynced before the 201; for S3, streamed into a spool file (a part
  has no length and S3 takes none without one) and put with the AWS SDK as lfk's client puts it. It
  checks no key and no form, hashes nothing and writes no row. Target ≥ 0.50. For S3 also a
  reference baseline holding each file whole in memory (no spool; not what lfk may do, no target).
  Then lfk's RSS while 20 files of 25 MiB arrive at once (its limits raised to 25 MiB): idle after
  a memory-reducing collection, the most sampled every 10 ms and the kernel's high-water mark (reset
  just before), three times; the row gives the worst, target < 50 MiB above idle. Most of what the
  peak holds is garbage V8 has not collected yet (the chunks read from the sockets), so it varies
  from one time to the next. The notes give the baseline's under the same load, measured alike.
- 18. Where each of scenario 8's loads spends its time, on each engine (notes): the load against
  lfk with V8's CPU profiler on, after a warm-up, and on PostgreSQL against the lower bound too:
  each server's CPU per request from /proc, the statements lfk sends, PostgreSQL's CPU, and the
  main thread's busy time by stage, lfk's beside the bound's (socket writes; HTTP and body parsing;
  tRPC; zod; the ORM; the database driver; PGlite's WebAssembly; lfk's own code; garbage
  collection; the rest). The profiler samples by the wall clock, so a socket write that hands the
  CPU to PostgreSQL's process on a busy 2-core machine counts the wait too: the busy time can
  exceed the CPU time. \`npm run bench:profile valid|malformed|unknown|keyed|browser\` gives the
  same by package and by function (\`BENCH_PROFILE_SERVER=bound\`: the lower bound's).
- 19. A webhook recover beside other work, two replicas on PostgreSQL: 10,000 real submissions
  (BENCH_WEBHOOK_DRAIN) written to a form in the minute before, its endpoint to a fast receiver on
  127.0.0.1, and \`POST …/recover\` for the last two minutes; meanwhile server-side submissions at
  50 a second (BENCH_RECOVER_SIDE_RATE), half through each replica, to another form of the same
  workspace whose endpoint goes to another fast receiver. Events a second, from asking to the last
  one's arrival (target ≥ 1,000/s), and that other endpoint's 201 → receipt while the recover's
  events flow (target p99 ≤ 250 ms). It runs before scenario 11, whose half-failing receiver leaves
  thousands of retries due for minutes.
- 20. Uploads against the **upload bound**, on PostgreSQL: one 1 MiB PDF a request
  (multipart/form-data, with a key, to an \`api_key\` form whose one file field accepts
  \`application/pdf\` and that notifies nobody), 8 and then 32 connections (undici), each sending one
  upload at a time; uploads a second, p50/p99 one upload's time. Four servers run at once, each idle
  but in its turn: the **raw ceiling** (bench/src/upload-baseline/server.ts, raw: node:http writing
  each request's whole body into a new file, fsynced, before its 201; nothing parsed or checked); the
  **lower bound** (bench/src/lower-bound/server.ts's upload route: scenario 8's Fastify server, its
  key and form checks, \`@fastify/multipart\` as lfk uses it, each file part streamed into a new file
  of its folder (fsynced as it closes) while hashed (sha256) and its first 4,100 bytes kept, sniffed
  by \`file-type\` against the field's \`accept\`, renamed to a random key, the folder fsynced once,
  then the submission and its file row in one statement on lfk's database); lfk on PostgreSQL; and
  lfk on its embedded database (both with their data directory on the same disk). The raw ceiling
  and the lower bound run with the Node flags lfk on PostgreSQL has (apps/server/postgres.node-flags:
  the bound spent about 30 % more CPU per upload without them). After a warm-up of each, they take
  turns (the order turned by one each turn), BENCH_BOUND_UPLOADS uploads (256) a batch,
  BENCH_UPLOAD_ROUNDS turns (3); each ratio is the median of the turns'. Targets (issue 52's): lfk
  ≥ 0.85 of the lower bound and ≥ 0.50 of the raw ceiling, lfk on the embedded database ≥ 0.80 of
  lfk on PostgreSQL. The notes give each server's CPU per upload and PostgreSQL's (every \`postgres\`
  process on the machine), and the load average as each load began.
- 21. Issue 52's soak, last in a run on PostgreSQL: two replicas started as \`npm start\` starts them there
  (apps/server/bin/start.sh with apps/server/postgres.node-flags, after the dashboard build) on
  BENCH_DATABASE_URL's database, files on the test world's s3rver (\`startS3Server\`, as scenario 17),
  four forms each with a webhook endpoint to a receiver on 127.0.0.1 answering 204. An open-loop
  load of 200 requests a second (BENCH_SOAK_RATE) for 300 s (BENCH_SOAK_SECONDS, which scenario 16
  also reads), each to the next replica in the rotation: half \`GET /v1/forms/{id}\` with a key, half
  keyed submissions, one in five of those multipart with an 8 KiB file (stored on S3). At a third
  of the run replica B is killed (SIGKILL), taken out of the rotation, started again and put back
  once \`/readyz\` answers, as a load balancer's health check would; at half, PostgreSQL itself is
  restarted (\`pg_ctlcluster <version> <cluster> restart\`, fast mode: only when the benchmark runs as
  root on the database's machine, else the note says it was not). Failed requests are counted by
  when they failed (at the kill, at the restart, otherwise); latency runs from each request's due
  time. Every process's RSS (/proc/PID/status VmRSS) every second: after its warm-up (30 s from its
  own start, so the restarted B's from its restart) and at the end of the load, each the median of
  5 s of samples, target end ÷ warm-up ≤ 1.20; and the least-squares slope over the second half of
  that window, target ≤ 2 MiB/min. At 200 requests a second that is about 170 bytes kept per
  request, less than one small object held per request (a Map entry and its key string), so a
  per-request leak shows; it is also about the smallest slope a window of one to two minutes
  resolves, as the young generation moves RSS by several MiB from one second to the next. A slope
  under it over 5 minutes can still be a leak over days: the live heap says more
  (BENCH_SOAK_NODE_OPTIONS with \`--heapsnapshot-signal=SIGUSR2\`, then \`kill -USR2\` at two moments;
  taking a snapshot grows RSS by the native memory it needs, so not in a measured run). Every acknowledged submission's event
  must reach the receiver (within 90 s of the load's end: a killed replica's held deliveries wait
  out their 60 s lock). BENCH_SOAK_METRICS=1 serves \`/metrics\` on the replicas and adds their V8
  heap to the note; BENCH_SOAK_NODE_OPTIONS gives them NODE_OPTIONS: both to find a growth, neither
  as \`npm start\` runs. Another run on the same database at the same time shares the webhook queue:
  its servers (another LFK_SECRET_KEY) take some of this run's deliveries and cannot open their
  secrets (the note counts them), and the restart cuts its connections too (the note counts those).
- \`BENCH_ONLY=uploads npm run bench\` runs scenario 4 (on the embedded database) and 17 alone,
  \`BENCH_ONLY=lower-bound\` (with BENCH_DATABASE_URL) scenarios 8, 18 and 20 on PostgreSQL,
  \`BENCH_ONLY=upload-bound\` (with BENCH_DATABASE_URL) scenario 20 alone,
  \`BENCH_ONLY=webhooks\` (with BENCH_DATABASE_URL) scenarios 10 to 12, 15, 16 and 19, and
  \`BENCH_ONLY=soak\` (with BENCH_DATABASE_URL) scenario 21; each replaces those rows and notes on
  this page, keeping the rest from the run before.
- Run it with BENCH_DATABASE_URL on a database of its own: the benchmark leaves its rows (and
  thousands of queued emails) behind.
`;

/** The page's head: what was run, where and under what load. */
function head(report: Report): string[] {
  return [
    `- **When:** ${report.startedAt.toISOString()}`,
    `- **Machine:** ${machine()}`,
    `- **Command:** \`${report.command}\``,
    `- **Settings:** ${report.settings}`,
    `- **Load:** ${loadWords(report)}`,
  ];
}

const loadWords = (report: Report) =>
  `1-minute load average ${report.load[0].toFixed(2)} when the run started (before it had run anything: other work on the machine), ` +
  `${report.load[1].toFixed(2)} when it ended, on ${cpus().length} cores`;

function page(headLines: string[], tableText: string, notes: string[]): string {
  return `# Benchmarks

Written by \`npm run bench\` (bench/src/run.ts); run it again to replace this page.

${headLines.join('\n')}

${tableText}

${notes.map((note) => `- ${note}`).join('\n')}

${HOW_TO_READ}`;
}

/** The page \`docs/benchmarks.md\`: what was run, where, and what came out. */
export function writeReport(path: string, report: Report): void {
  writeFileSync(path, page(head(report), table(report.rows), report.notes));
}

/** A row of the page as written: its scenario, engine and cells. */
export interface WrittenRow {
  scenario: string;
  engine: string;
  cells: string[];
  line: string;
}

const SEPARATOR = /^\| (---+ \| )+---+ \|$/;

/** The rows of the page at \`path\` (none when there is no page). */
export function writtenRows(path: string): WrittenRow[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !SEPARATOR.test(line) && !line.startsWith('| scenario |'))
    .map((line) => {
      const cells = line.slice(2, -2).split(' | ');
      return { scenario: cells[0]!, engine: cells[1]!, cells, line };
    });
}

const scenarioNumber = (scenario: string) => scenario.split(' · ')[0]!;

/** The scenarios a page's "Partial run" line says its run wrote. */
const partialScenarios = (line: string) => /, scenarios? ([\d and]+) only /.exec(line)?.[1]?.split(' and ') ?? [];

/**
 * A run of some scenarios only (\`BENCH_ONLY\`): their rows and notes on the page replace those of
 * the same scenarios and engines, the others stay; the head says which run wrote what (an earlier
 * partial run's line stays while some of its scenarios are still its). New rows
 * take the place of the rows they replace, or follow the last row of their engine.
 */
export function mergeReport(path: string, report: Report): void {
  if (!existsSync(path)) {
    writeReport(path, report);
    return;
  }
  const text = readFileSync(path, 'utf8');
  const ran = new Set(report.rows.map((r) => `${scenarioNumber(r.scenario)}|${r.engine}`));
  // A scenario may write notes only (18): its old notes go as those of scenarios with rows do.
  const noteNumbers = report.notes.flatMap((note) => /^Scenario (\d+)\b/.exec(note)?.[1] ?? []);
  const numbers = new Set([...report.rows.map((r) => scenarioNumber(r.scenario)), ...noteNumbers]);
  const newLines = table(report.rows).split('\n').slice(2);
  const newKey = (i: number) => `${scenarioNumber(report.rows[i]!.scenario)}|${report.rows[i]!.engine}`;
  const placed = new Set<number>();
  const lines: string[] = [];
  const old = writtenRows(path);
  old.forEach((row, at) => {
    const key = `${scenarioNumber(row.scenario)}|${row.engine}`;
    if (ran.has(key)) {
      report.rows.forEach((_, i) => {
        if (newKey(i) === key && !placed.has(i)) {
          lines.push(newLines[i]!);
          placed.add(i);
        }
      });
    } else {
      lines.push(row.line);
    }
    // After the last row of an engine, the new rows of that engine that replaced nothing.
    if (old[at + 1]?.engine !== row.engine) {
      report.rows.forEach((r, i) => {
        if (r.engine === row.engine && !placed.has(i)) {
          lines.push(newLines[i]!);
          placed.add(i);
        }
      });
    }
  });
  report.rows.forEach((_, i) => {
    if (!placed.has(i)) lines.push(newLines[i]!);
  });
  const tableText = [...table([]).split('\n'), ...lines].join('\n');
  const keptNotes = text
    .slice(text.indexOf(old.at(-1)?.line ?? '\n'), text.indexOf('## How to read it'))
    .split('\n')
    .filter((line) => line.startsWith('- ') && !numbers.has(/^- Scenario (\d+)\b/.exec(line)?.[1] ?? ''))
    .map((line) => line.slice(2));
  const scenariosWords = `scenario${numbers.size === 1 ? '' : 's'} ${[...numbers].join(' and ')}`;
  const partial =
    `- **Partial run:** \`${report.command}\` on ${report.startedAt.toISOString()}, ${scenariosWords} only ` +
    `(settings: ${report.settings}; load: ${loadWords(report)}). Their rows and notes replace the earlier run's; the rest is from the run above.`;
  const headLines = text
    .slice(0, text.indexOf('\n| scenario |'))
    .split('\n')
    // An earlier partial run's line stays while some of its scenarios are not this run's: their rows are still its own.
    .filter((line) => line.startsWith('- **') && (!line.startsWith('- **Partial run:**') || partialScenarios(line).some((n) => !numbers.has(n))));
  writeFileSync(path, page([...headLines, partial], tableText, [...keptNotes, ...report.notes]));
}
