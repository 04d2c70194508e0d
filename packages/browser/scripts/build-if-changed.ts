// `npm run build -w @lfk/browser`: rebuilds the kit only when its sources changed.
import { ensureKitBuilt } from './build.ts';

await ensureKitBuilt((line) => process.stderr.write(`${line}\n`));
