import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where uploads are spooled while they arrive: `<LFK_DATA_DIR>/spool`, beside the files folder so a
 * stored file is renamed into place, not copied (a temporary folder when the data directory is
 * `memory://`, removed when the server stops). Made at start, with the data directory if need be.
 */
export async function spoolDirFor(dataDir: string): Promise<{ spoolDir: string; temporarySpool: boolean }> {
  if (dataDir.startsWith('memory://')) return { spoolDir: await mkdtemp(join(tmpdir(), 'lfk-spool-')), temporarySpool: true };
  const dir = join(dataDir, 'spool');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return { spoolDir: dir, temporarySpool: false };
}
