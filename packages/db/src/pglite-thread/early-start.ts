import { mkdirSync } from 'node:fs';
import { initialiseDataDirOutOfProcess, PGLITE_START_PARAMS } from '../pglite-settings.ts';
import { PgliteThread, type ThreadOptions } from './thread.ts';

/** A thread started ahead, by its data directory, until `openDatabase` takes it. */
const startedEarly = new Map<string, Promise<PgliteThread>>();

/** The embedded database's thread on `dataDir` (a new directory initialised first), starting. */
export function startThread(dataDir: string, loadDataDir?: ThreadOptions['loadDataDir']): Promise<PgliteThread> {
  try {
    if (!dataDir.startsWith('memory://')) {
      mkdirSync(dataDir, { recursive: true });
      initialiseDataDirOutOfProcess(dataDir);
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return PgliteThread.start({ dataDir, startParams: [...PGLITE_START_PARAMS], ...(loadDataDir ? { loadDataDir } : {}) });
}

/**
 * Starts the embedded database on `dataDir` now, before the server's code is loaded: PGlite's
 * start (its WebAssembly, then PostgreSQL's own) takes about as long as loading that code, and on a
 * second core it runs beside it. `openDatabase` on the same directory takes this thread; a failure
 * to start is its failure then, as it would have been.
 */
export function startEmbeddedEarly(dataDir: string): void {
  const starting = startThread(dataDir);
  // Reported when it is taken: not an unhandled rejection before then.
  starting.catch(() => {});
  startedEarly.set(dataDir, starting);
}

/** The thread `startEmbeddedEarly` started on `dataDir`, once: the next open of it starts its own. */
export function takeStartedEarly(dataDir: string): Promise<PgliteThread> | undefined {
  const starting = startedEarly.get(dataDir);
  startedEarly.delete(dataDir);
  return starting;
}
