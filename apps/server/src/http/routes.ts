import type { DatabaseOutage, Services } from '@lfk/api';
import type { Database } from '@lfk/db';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { registerApiDocs } from './api-docs.ts';
import { registerAutoReplyStops } from './auto-reply-stops.ts';
import { registerBrowserRoutes } from './browser-routes.ts';
import { isDashboardBuilt, registerDashboard } from './dashboard.ts';
import { registerEmailVerification } from './email-verification.ts';
import { registerFiles } from './files.ts';
import { registerHealth } from './health.ts';
import { readKit, registerKit } from './kit.ts';
import { buildOpenApi } from './openapi/document.ts';
import { ownOriginCheck } from './own-origin.ts';
import { registerPasswordResetPage } from './password-reset-page.ts';
import { registerPublicForms } from './public-forms.ts';
import { requestContexts } from './request-context.ts';
import { registerRestBridge } from './rest-bridge.ts';
import { registerSecretScanning } from './secret-scanning.ts';
import { registerSubmissionExport } from './submission-export.ts';
import { registerSubmissions } from './submissions.ts';
import { registerTrpc } from './trpc.ts';

/** Every route lfk answers: health, the API (REST and tRPC), the pages links in mail open, and the dashboard. Returns whether the dashboard is served. */
export async function registerRoutes(app: FastifyInstance, config: Config, services: Services, db: Database, outage: DatabaseOutage): Promise<boolean> {
  registerHealth(app, db, outage);
  const openApi = buildOpenApi(config.publicUrl);
  app.get('/v1/openapi.json', async () => openApi);
  await registerApiDocs(app);

  const contexts = requestContexts(services, config.publicUrl, ownOriginCheck(config.publicUrl, config.publicUrlIsSet));
  const { contextFor } = contexts;
  registerRestBridge(app, contexts);
  await registerSubmissions(app, services, contextFor, config.timeouts.requestMs);
  registerSubmissionExport(app, contextFor);
  registerFiles(app, contextFor);
  registerPublicForms(app, contextFor);
  registerBrowserRoutes(app, services, contextFor);
  const kit = readKit(config.kitDir);
  if (!kit && config.kitDir !== undefined) app.log.warn({ dir: config.kitDir }, 'no browser kit build there: /v1/kit/ answers 404 (npm start builds it)');
  registerKit(app, kit, config.publicUrl);
  await registerEmailVerification(app, contextFor);
  await registerAutoReplyStops(app, contextFor);
  await registerPasswordResetPage(app, contextFor, `${config.publicUrl}/sign-in`);
  await registerSecretScanning(app, contextFor);
  await registerTrpc(app, contextFor);
  if (config.dashboardDir === undefined) return false;
  if (isDashboardBuilt(config.dashboardDir)) {
    await registerDashboard(app, config.dashboardDir);
    return true;
  }
  app.log.warn({ dir: config.dashboardDir }, 'no dashboard build there: serving the API only (npm start builds it)');
  return false;
}
