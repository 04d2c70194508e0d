/**
 * An export to a reader that stops reading holds about one batch, not the file: the server reads
 * the next batch from the database only when the socket has taken the last. A reader that goes
 * away ends its export. One person streams at most LFK_EXPORTS_PER_PERSON exports at once.
 *
 * What the server holds for a stalled reader is counted without timing: the rows it read
 * (`lfk_export_rows_read_total`) as file bytes, less what left it (the kernel's socket queues, on
 * both ends, and what the client's socket read), once the count stops moving.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { EXPORT_BATCH } from '@lfk/api';
import { type Account, expectError, until, useTestServer } from '@lfk/server/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inboxForm } from './fixtures.ts';

/** Values of about 60 KB a submission (the limit is 64 KiB): a batch is a few of them, the file many. */
const VALUE_BYTES = 60_000;
/** 30 MB of file: more than the kernel's socket buffers take from a reader that reads nothing. */
const ROWS = 500;

const t = useTestServer({ LFK_METRICS: 'true' });
let owner: Account;
let formId: string;
let port: number;
/** The bytes of the file's header line, and of each row (every row is the same size). */
let headerBytes: number;
let rowBytes: number;
const open: Socket[] = [];

beforeAll(async () => {
  port = Number(new URL(await t.server.listen()).port);
  owner = await t.signup();
  const form = await inboxForm(t, owner);
  formId = form.id;
  // Ids of one width, so every row of the file is as long as every other.
  await t.sql(
    "insert into submissions (id, form_id, data, source, status, created_at) select 'sub_' || lpad(to_hex(g), 26, '0'), ?, " +
      "json_build_object('name', 'n', 'email', 'x@example.com', 'message', repeat('x', ?)), 'browser', 'ok', now() from generate_series(1, ?) g",
    [formId, VALUE_BYTES, ROWS],
  );
  const one = await t.request('GET', `/v1/forms/${formId}/submissions/export?since=2000-01-01T00:00:00Z&until=2000-01-02T00:00:00Z`, { token: owner.token });
  headerBytes = Buffer.byteLength(one.body);
  const all = await t.request('GET', `/v1/forms/${formId}/submissions/export`, { token: owner.token });
  expect(all.status).toBe(200);
  rowBytes = (Buffer.byteLength(all.body) - headerBytes) / ROWS;
  expect(Number.isInteger(rowBytes)).toBe(true);
}, 120_000);

afterEach(() => {
  for (const socket of open.splice(0)) socket.destroy();
});

/** Prometheus text as `series → value`. */
async function metrics(): Promise<Map<string, number>> {
  const res = await t.request('GET', '/metrics');
  expect(res.status).toBe(200);
  return new Map(
    res.body
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]),
  );
}
const rowsRead = async () => (await metrics()).get('lfk_export_rows_read_total') ?? 0;
const streaming = async () => (await metrics()).get('lfk_exports_streaming') ?? 0;

/** An export asked for over a real socket that never reads what comes back. */
async function stalledExport(token = owner.token): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  open.push(socket);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.pause();
  socket.write(`GET /v1/forms/${formId}/submissions/export HTTP/1.1\r\nHost: lfk.test\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  return socket;
}

/**
 * Bytes of this connection in the kernel's queues (Linux, /proc/net/tcp): what the server's socket
 * has not had acknowledged, and what the client's has received and not read.
 */
function queuedInKernel(client: Socket): number {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  const clientPort = hex(client.localPort!);
  const serverPort = hex(port);
  let bytes = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, remote, , queues] = line.trim().split(/\s+/);
    if (!local || !remote || !queues) continue;
    const [tx, rx] = queues.split(':').map((q) => Number.parseInt(q, 16));
    if (local.endsWith(`:${serverPort}`) && remote.endsWith(`:${clientPort}`)) bytes += tx!;
    if (local.endsWith(`:${clientPort}`) && remote.endsWith(`:${serverPort}`)) bytes += rx!;
  }
  return bytes;
}

/** The rows read so far, once the count has not moved for ten looks in a row. */
async function readsSettled(): Promise<number> {
  let last = -1;
  let same = 0;
  return until('the export to stop reading', async () => {
    const now = await rowsRead();
    same = now === last ? same + 1 : 0;
    last = now;
    return same >= 10 && now;
  });
}

describe('a reader that stops reading', () => {
  it('holds about one batch in the server, not the file; gone, it ends the export', async () => {
    const before = await rowsRead();
    const reader = await stalledExport();
    const read = (await readsSettled()) - before;
    const left = queuedInKernel(reader) + reader.readableLength;
    const held = headerBytes + read * rowBytes - left;
    // A batch stops at EXPORT_BATCH.bytes of values: the row that reaches it is the batch's last.
    const batchBytes = Math.ceil(EXPORT_BATCH.bytes / VALUE_BYTES) * rowBytes;
    expect(read, 'the export is still waiting for its reader').toBeLessThan(ROWS);
    // One batch waits in the socket, the next in the stream; nothing more is read until they leave.
    expect(held, `${read} rows read, ${left} bytes in the kernel and the client`).toBeLessThanOrEqual(headerBytes + 2 * batchBytes);
    expect(await streaming()).toBe(1);

    reader.destroy();
    await until('the export to end', async () => (await streaming()) === 0);
    expect(await readsSettled()).toBe(before + read);
  });
});

describe('exports at once, per person (LFK_EXPORTS_PER_PERSON, 2 by default)', () => {
  it('a third is 429 rate_limited with Retry-After while two stream; others are not held back; one ends, one more may start', async () => {
    const teammate = await t.signup();
    await t.addMember(owner.workspaceId, teammate.email, 'member');
    const first = await stalledExport();
    await stalledExport();
    await until('two exports to stream', async () => (await streaming()) === 2);

    const refused = expectError(await t.request('GET', `/v1/forms/${formId}/submissions/export?format=jsonl`, { token: owner.token }), 429, 'rate_limited');
    expect(refused.message).toMatch(/already exporting 2 files/);
    const res = await t.request('GET', `/v1/forms/${formId}/submissions/export?q=nothing-matches`, { token: owner.token });
    expect(res.headers['retry-after']).toBe('10');
    expect((await t.request('GET', `/v1/forms/${formId}/submissions/export?q=nothing-matches`, { token: teammate.token })).status).toBe(200);

    first.destroy();
    await until('the export to end', async () => (await streaming()) === 1);
    const again = await t.request('GET', `/v1/forms/${formId}/submissions/export?q=nothing-matches`, { token: owner.token });
    expect(again.status, again.body).toBe(200);
    expect(again.body).toBe('id,created_at,via,name,email,message\r\n');
  });
});
