import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLfkClient } from '@lfk/client';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverEnv, startBenchServer } from './processes.ts';
import { seed } from './seed.ts';

const MIB = 2 ** 20;
const mode = process.argv[2] ?? 'small';
const readers = Number(process.argv[3] ?? 4);
const dataDir = mkdtempSync(join(tmpdir(), 'lfk-scratch-'));
const server = await startBenchServer(serverEnv(process.env.PG ? { databaseUrl: process.env.PG } : { dataDir }));
try {
  const seeded = await seed(server, 1);
  const owner = createLfkClient({ baseUrl: server.url, sessionToken: seeded.sessionToken });
  const form = await owner.forms.create.mutate({ workspace_id: seeded.workspaceId, name: 'x', schema: [{ name: 'email', type: 'email', required: true }, { name: 'message', type: 'textarea' }] });
  if (mode === 'small') await server.seedSubmissions(form.id, 100_000);
  else {
    const withKey = createLfkClient({ baseUrl: server.url, apiKey: seeded.keys[0]!.key });
    for (let i = 0; i < 900; i++) await withKey.submissions.create.mutate({ form_id: form.id, data: { email: 'a@example.com', message: 'x'.repeat(63_000) } } as never);
  }
  const u = new URL(server.url);
  await sleep(1000);
  console.log('idle rss', (server.rssBytes() / MIB).toFixed(0), 'queries', await server.queries());
  const sockets: Socket[] = [];
  for (let i = 0; i < readers; i++) {
    const s = connect(Number(u.port), u.hostname);
    await new Promise((r) => s.once('connect', r));
    s.write(`GET /v1/forms/${form.id}/submissions/export HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${seeded.sessionToken}\r\n\r\n`);
    sockets.push(s);
  }
  for (let i = 0; i < 8; i++) {
    await sleep(1000);
    console.log('stalled', i, 'rss', (server.rssBytes() / MIB).toFixed(0), 'heap', ((await server.liveHeapBytes()) / MIB).toFixed(0), 'queries', await server.queries());
  }
  for (const s of sockets) s.destroy();
  for (let i = 0; i < 4; i++) {
    await sleep(1000);
    console.log('after', i, 'rss', (server.rssBytes() / MIB).toFixed(0), 'heap', ((await server.liveHeapBytes()) / MIB).toFixed(0), 'queries', await server.queries());
  }
} finally {
  await server.stop();
}
