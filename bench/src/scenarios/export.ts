import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLfkClient } from '@lfk/client';
import { type BenchServer, STALLED_READERS } from '../processes.ts';
import type { Row } from '../report.ts';
import type { Seed } from '../seed.ts';

const MIB = 2 ** 20;
/** How often the server's RSS is read while a file streams: its peak is what the export costs. */
const SAMPLE_EVERY_MS = 20;

interface Streamed {
  rows: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  peakRss: number;
  /** With `liveHeap`, the most the server's heap held live (after a collection) while the file streamed. */
  peakLiveHeap: number;
  /** How many live-heap samples were taken while the file streamed. */
  heapSamples: number;
}

/**
 * One export read to the end as a client reads it, counting rows (CSV records) and sampling the
 * server's RSS; with `liveHeap`, also its live heap (each sample a full collection in the server,
 * which slows the stream: a pass of its own, not timed).
 */
async function streamExport(server: BenchServer, url: string, sessionToken: string, liveHeap = false): Promise<Streamed> {
  let peakRss = server.rssBytes();
  let peakLiveHeap = 0;
  let heapSamples = 0;
  let asking = false;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, server.rssBytes());
    if (!liveHeap || asking) return;
    asking = true;
    void server.liveHeapBytes().then((bytes) => {
      peakLiveHeap = Math.max(peakLiveHeap, bytes);
      heapSamples++;
      asking = false;
    });
  }, SAMPLE_EVERY_MS);
  try {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${sessionToken}` } });
    if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
    let firstByteMs = -1;
    let bytes = 0;
    let records = 0;
    for await (const chunk of response.body) {
      if (firstByteMs < 0) firstByteMs = performance.now() - started;
      bytes += chunk.length;
      // Every record ends with CRLF; a value's own line breaks are quoted LFs, never CRLF here.
      for (let i = 1; i < chunk.length; i++) if (chunk[i] === 0x0a && chunk[i - 1] === 0x0d) records++;
    }
    return { rows: records - 1, bytes, firstByteMs, totalMs: performance.now() - started, peakRss, peakLiveHeap, heapSamples };
  } finally {
    clearInterval(sampler);
    peakRss = Math.max(peakRss, server.rssBytes());
  }
}

/** How long the server's statement count must stay still for the stalled exports to count as stalled. */
const STILL_FOR_MS = 1000;
/** Resolves once the server has sent no statement for `STILL_FOR_MS`: what it does for requests has stopped. */
async function quiet(server: BenchServer): Promise<void> {
  let last = await server.queries();
  for (;;) {
    await sleep(STILL_FOR_MS);
    const now = await server.queries();
    if (now === last) return;
    last = now;
  }
}

/**
 * `STALLED_READERS` exports of `url` asked for over sockets that never read a byte: the server's
 * RSS before, at its highest while the exports fill the sockets' kernel buffers (a few MiB each
 * before they push back: garbage to V8, which keeps the pages it grew into until memory is short),
 * and what it holds while they stay stalled and after they disconnect: each read after a
 * memory-reducing collection, which collects that garbage and gives its pages back as memory
 * pressure would. The kernel's buffers are not the process's.
 */
async function stalledExports(server: BenchServer, url: string, sessionToken: string) {
  const held = async () => {
    await server.collect();
    return server.rssBytes();
  };
  const idle = await held();
  const { hostname, port, pathname, search } = new URL(url);
  const sockets: Socket[] = [];
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rssBytes());
  }, SAMPLE_EVERY_MS);
  try {
    for (let i = 0; i < STALLED_READERS; i++) {
      const socket = connect(Number(port), hostname);
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      socket.pause();
      socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${sessionToken}\r\n\r\n`);
    }
    await quiet(server);
    clearInterval(sampler);
    const stalled = await held();
    for (const socket of sockets) socket.destroy();
    await quiet(server);
    return { idle, peak, stalled, after: await held() };
  } finally {
    clearInterval(sampler);
    for (const socket of sockets) socket.destroy();
  }
}

/**
 * Scenario 13: a form's submissions exported as CSV, streamed. 10 000 then 100 000 rows, so flat
 * memory shows as the same live heap for both; rows a second, time to the first byte, the server's
 * RSS before and at its highest while the file streamed, and its live heap (what it holds after a
 * collection) at its highest. Then ten exports of the 100 000 left stalled (readers that stop
 * reading), and of a form of 900 submissions of 63 KB each (57 MiB, as an attacker fills one by key):
 * the server's RSS above idle while they are stalled, and after they disconnect.
 */
export async function exportScenario(server: BenchServer, seeded: Seed, engine: string, notes: string[], counts = [10_000, 100_000]): Promise<Row[]> {
  const owner = createLfkClient({ baseUrl: server.url, sessionToken: seeded.sessionToken });
  const rows: Row[] = [];
  for (const count of counts) {
    const form = await owner.forms.create.mutate({
      workspace_id: seeded.workspaceId,
      name: `Export ${count}`,
      schema: [
        { name: 'email', type: 'email', required: true },
        { name: 'message', type: 'textarea' },
      ],
    });
    await server.seedSubmissions(form.id, count);
    const url = `${server.url}/v1/forms/${form.id}/submissions/export?format=csv`;
    // One export of a few rows first, so what the first call of a route loads is not counted.
    await streamExport(server, `${url}&q=person1@`, seeded.sessionToken);
    const before = server.rssBytes();
    const run = await streamExport(server, url, seeded.sessionToken);
    if (run.rows !== count) throw new Error(`the export of ${count} submissions held ${run.rows} rows`);
    const heapBefore = await server.liveHeapBytes();
    const sampled = await streamExport(server, url, seeded.sessionToken, true);
    const liveGrowth = (Math.max(sampled.peakLiveHeap, heapBefore) - heapBefore) / MIB;
    const rate = count / (run.totalMs / 1000);
    notes.push(
      `Scenario 13 (${engine}): ${count.toLocaleString('en')} submissions as CSV, ${(run.bytes / MIB).toFixed(1)} MiB in ` +
        `${(run.totalMs / 1000).toFixed(2)} s (${Math.round(rate).toLocaleString('en')} rows/s), first byte after ${run.firstByteMs.toFixed(0)} ms. ` +
        `Server RSS ${(before / MIB).toFixed(0)} MiB before, ${(run.peakRss / MIB).toFixed(0)} MiB at most while it streamed ` +
        `(+${((run.peakRss - before) / MIB).toFixed(0)} MiB: garbage V8 had not collected yet); live heap ${(heapBefore / MIB).toFixed(1)} MiB before, ` +
        `+${liveGrowth.toFixed(1)} MiB at most while it streamed (${sampled.heapSamples} samples, in a second pass).`,
    );
    rows.push({ scenario: `13 · CSV export of ${count / 1000}k submissions, rows/s`, engine, requestsPerSecond: rate });
    rows.push({ scenario: `13 · live heap growth (MiB) exporting ${count / 1000}k`, engine, ratio: liveGrowth, target: '≤ 16, flat', met: liveGrowth <= 16 });
    rows.push({ scenario: `13 · peak RSS growth (MiB) exporting ${count / 1000}k`, engine, ratio: (run.peakRss - before) / MIB });
    if (count === 100_000) rows.push(...stalledRows(await stalledExports(server, url, seeded.sessionToken), `${count / 1000}k submissions`, engine, notes));
  }
  const large = await owner.forms.create.mutate({
    workspace_id: seeded.workspaceId,
    name: 'Export of large values',
    schema: [
      { name: 'email', type: 'email', required: true },
      { name: 'message', type: 'textarea' },
    ],
  });
  await server.seedSubmissions(large.id, LARGE_ROWS, LARGE_MESSAGE_BYTES);
  const largeUrl = `${server.url}/v1/forms/${large.id}/submissions/export?format=csv`;
  rows.push(...stalledRows(await stalledExports(server, largeUrl, seeded.sessionToken), `${LARGE_ROWS} submissions of 63 KB`, engine, notes));
  return rows;
}

/** The attack's form: 900 submissions of 63 KB, a 57 MiB file that used to be two batches of rows. */
const LARGE_ROWS = 900;
const LARGE_MESSAGE_BYTES = 63_000;

function stalledRows(figures: Awaited<ReturnType<typeof stalledExports>>, what: string, engine: string, notes: string[]): Row[] {
  const above = (bytes: number) => (bytes - figures.idle) / MIB;
  notes.push(
    `Scenario 13 (${engine}): ${STALLED_READERS} exports of ${what} to readers that stop reading: server RSS ${(figures.idle / MIB).toFixed(0)} MiB ` +
      `before; +${above(figures.peak).toFixed(1)} MiB at most while they filled their sockets' kernel buffers; ` +
      `${signed(above(figures.stalled))} MiB held while stalled, ${signed(above(figures.after))} MiB after they disconnected ` +
      '(each after a memory-reducing collection).',
  );
  return [
    {
      scenario: `13 · RSS held (MiB above idle), ${STALLED_READERS} stalled exports of ${what}`,
      engine,
      ratio: above(figures.stalled),
      target: '< 50',
      met: above(figures.stalled) < 50,
    },
    { scenario: `13 · RSS at most (MiB above idle) while those ${STALLED_READERS} fill their sockets`, engine, ratio: above(figures.peak) },
    {
      scenario: `13 · RSS held (MiB above idle) after those ${STALLED_READERS} disconnect`,
      engine,
      ratio: above(figures.after),
      target: '< 10: back to idle, within the allocators’ noise',
      met: above(figures.after) < 10,
    },
  ];
}

const signed = (value: number) => `${value < 0 ? '−' : '+'}${Math.abs(value).toFixed(1)}`;
