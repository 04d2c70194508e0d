// `npm start` runs this before the server: it rebuilds the browser kit and the dashboard, each only
// when its sources changed. The server serves both from their builds (`/v1/kit/`, `/`).
import { ensureKitBuilt } from '@lfk/browser/build';
import { ensureDashboardBuilt } from './dashboard-build.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);
await ensureKitBuilt(log);
await ensureDashboardBuilt(log);
