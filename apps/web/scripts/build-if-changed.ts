// `npm start` runs this before the server: it rebuilds the dashboard only when its sources changed.
import { ensureDashboardBuilt } from './dashboard-build.ts';

await ensureDashboardBuilt((line) => process.stderr.write(`${line}\n`));
