import type { KycSimulator, KycSimulatorOptions } from '@exchange/server/provider-kit';
import { sealPlainImages } from '../seal-legacy.ts';
import { WebhookDelivery } from './delivery.ts';
import { SIMULATOR_PREFIX, simulatorRoutes } from './routes.ts';
import {
  actOnApplicant,
  findSimApplicantByExternalId,
  loadSimulatorCredentials,
  simDocumentImage,
  simulatorDocumentKey,
  waitingApplicants,
} from './store.ts';

/**
 * The KYC simulator: a Sumsub-compatible REST API (signed and checked as Sumsub's), the applicant's verification
 * page (its "WebSDK"), a reviewer's desk, and the signed webhooks Sumsub sends. Its state is in PostgreSQL
 * (`kyc_sim_*`, its credentials in `app_secrets`).
 */

export { SIMULATOR_PREFIX } from './routes.ts';
export { createSimApplicant, issueAccessToken, loadSimulatorCredentials } from './store.ts';

/**
 * Builds the simulator over a database: its credentials (made once), the routes to mount at {@link SIMULATOR_PREFIX}
 * and its webhook delivery (not started: a background job starts it). Images an earlier version stored in plain
 * text are sealed first.
 */
export async function createKycSimulator(options: KycSimulatorOptions): Promise<KycSimulator> {
  const { db } = options;
  const credentials = await loadSimulatorCredentials(db);
  const key = simulatorDocumentKey(credentials);
  const sealed = await sealPlainImages(db, 'kyc_sim_documents', async () => key);
  if (sealed > 0) options.log?.warn({ sealed }, 'kyc simulator: sealed plain document images');
  const delivery = new WebhookDelivery({
    db,
    feed: options.feed,
    credentials,
    algorithm: options.digestAlgorithm,
    webhookUrl: options.webhookUrl,
    log: options.log,
  });
  const routeDeps = {
    db,
    credentials,
    publicUrl: options.publicUrl,
    autoApproveSeconds: options.autoApproveSeconds,
    kick: () => delivery.kick(),
  };
  return {
    prefix: SIMULATOR_PREFIX,
    routes: (app) => simulatorRoutes(app, routeDeps),
    delivery,
    credentials,
    desk: {
      waiting: () => waitingApplicants(db),
      applicant: (externalUserId) => findSimApplicantByExternalId(db, externalUserId),
      decide: (applicantId, action, comment, record) =>
        actOnApplicant(db, applicantId, action, 0, comment ?? null, record),
      document: (externalUserId, id) => simDocumentImage(db, key, externalUserId, id),
    },
  };
}
