/**
 * Where a server's time went, from a V8 CPU profile of a load: by package (native work counted for
 * the JavaScript that called it), by function, and by stage of a request (HTTP, tRPC, the ORM, …).
 * The profiler samples the main thread by the wall clock, so a sample may fall while the thread
 * waits to run again (after a socket write has handed the CPU to the database's process, on a
 * busy machine): these are the thread's busy time, which the server's CPU time from /proc bounds.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Breakdown {
  /** Busy time (not idle) per request, in microseconds. */
  busyMicros: number;
  byStage: [string, number][];
  byPackage: [string, number][];
  byFunction: [string, number][];
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);
const isNative = (url: string) => url === '';

function packageOf(url: string): string {
  if (url.includes('node_modules/')) {
    const parts = url.split('node_modules/').at(-1)!.split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite)';
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node:').split('/')[0]!;
  return `lfk ${url.replace(/^file:\/\/.*?\/(apps|packages|bench)\//, '$1/').replace(/\/[^/]+$/, '/')}`;
}

/** The stages of a request, by the packages whose time is theirs (first match wins). */
const STAGES: [string, (where: string) => boolean][] = [
  ['socket writes (to the database and the client)', (w) => w === 'node:stream_base_commons (native work)'],
  [
    'HTTP and body parsing (Node, Fastify)',
    (w) => /^(fastify|@fastify\/|find-my-way|secure-json-parse|fast-json-stringify|light-my-request|node:_http|node:http)/.test(w),
  ],
  ['tRPC', (w) => w.startsWith('@trpc/')],
  ['zod', (w) => w.startsWith('zod')],
  ['ORM (MikroORM, kysely)', (w) => w.startsWith('@mikro-orm/') || w.startsWith('kysely')],
  ['database driver (pg; PGlite’s JavaScript)', (w) => /^(pg|pg-protocol|pg-types|pg-pool|@electric-sql\/pglite)( |$)/.test(w)],
  ['PostgreSQL in WebAssembly (PGlite)', (w) => w.startsWith('WebAssembly')],
  ['lfk’s own code', (w) => w.startsWith('lfk ')],
  ['garbage collection', (w) => w === '(garbage collector)'],
  ['other (Node’s internals, crypto, timers, the profiler)', () => true],
];

/** What `profile` says per request of `requests`. */
export function breakdown(profile: CpuProfile, requests: number): Breakdown {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // A sample's time goes to its own package or, for native work, to that of its nearest JavaScript caller.
  const whereOf = (id: number): string => {
    const frame = byId.get(id)!.callFrame;
    if (IDLE.has(frame.functionName)) return frame.functionName;
    if (!isNative(frame.url)) return packageOf(frame.url);
    for (let up = parentOf.get(id); up !== undefined; up = parentOf.get(up)) {
      const caller = byId.get(up)!.callFrame;
      if (!isNative(caller.url)) return `${packageOf(caller.url)} (native work)`;
    }
    return '(native)';
  };
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') return;
    const micros = profile.timeDeltas[i] ?? 0;
    const where = whereOf(id);
    busy += micros;
    byPackage.set(where, (byPackage.get(where) ?? 0) + micros);
    const name = `${frame.functionName || '(anonymous)'} ${isNative(frame.url) ? where : `${packageOf(frame.url)}:${frame.lineNumber + 1}`}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  });
  const byStage = new Map<string, number>();
  for (const [where, micros] of byPackage) {
    const stage = STAGES.find(([, owns]) => owns(where))![0];
    byStage.set(stage, (byStage.get(stage) ?? 0) + micros);
  }
  const perRequest = (map: Map<string, number>) => [...map].map(([name, micros]): [string, number] => [name, micros / requests]).sort((a, b) => b[1] - a[1]);
  return { busyMicros: busy / requests, byStage: perRequest(byStage), byPackage: perRequest(byPackage), byFunction: perRequest(byFunction) };
}
