/**
 * `npm start`'s server (bin/start.sh). Loading the server's code (serve.ts and all it imports) is
 * most of its start-up, so two things come first: Node's compile cache, which keeps that code
 * compiled between starts; and on the embedded database, the database's own start, which then runs
 * beside the loading on another core instead of after it (docs/decisions.md, issue 52).
 */
import { enableCompileCache } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEarly } from '@lfk/db/early-start';
import { DEFAULT_DATA_DIR } from './data-dir.ts';

// In the user's own cache directory, as the CLI's (apps/cli/bin/lfk.js): a shared /tmp one could be planted by others.
const cacheHome = process.env.XDG_CACHE_HOME?.startsWith('/') ? process.env.XDG_CACHE_HOME : join(homedir(), '.cache');
enableCompileCache(join(cacheHome, 'lfk', 'compile-cache'));
// As the configuration reads them (config.ts), where an empty variable is unset.
if (!process.env.DATABASE_URL) startEmbeddedEarly(process.env.LFK_DATA_DIR || DEFAULT_DATA_DIR);
await import('./serve.ts');
