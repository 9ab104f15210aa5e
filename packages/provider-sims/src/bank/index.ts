import type { BankSimulator, BankSimulatorOptions } from '@exchange/server/provider-kit';
import { BankWebhookDelivery } from './delivery.ts';
import { createSimulatedBank } from './payouts.ts';
import { BANK_SIMULATOR_PREFIX, bankSimulatorRoutes } from './routes.ts';
import { loadBankSimulatorCredentials } from './store.ts';

/**
 * The bank simulator: the collection account's bank (its developer endpoint books a SEPA credit transfer from the
 * outside world, and its signed camt.054-style notifications tell the exchange), and the payouts' bank (pays any
 * valid IBAN up to its limit). Its state is in PostgreSQL (`banksim_*`); its payouts are remembered in memory.
 */

export { SIM_BANK_PAYOUT_LIMIT } from './payouts.ts';
export { BANK_SIMULATOR_PREFIX } from './routes.ts';
export { loadBankSimulatorCredentials } from './store.ts';

/**
 * Builds the simulator over a database: its credentials (made once), the routes to mount at
 * {@link BANK_SIMULATOR_PREFIX}, its notification delivery (not started: a background job starts it) and the payouts.
 */
export async function createBankSimulator(options: BankSimulatorOptions): Promise<BankSimulator> {
  const { db } = options;
  const credentials = await loadBankSimulatorCredentials(db);
  const delivery = new BankWebhookDelivery({
    db,
    feed: options.feed,
    webhookSecret: credentials.webhookSecret,
    webhookUrl: options.webhookUrl,
    log: options.log,
  });
  const routeDeps = { db, credentials, collection: options.collection, kick: () => delivery.kick() };
  return {
    prefix: BANK_SIMULATOR_PREFIX,
    routes: (app) => bankSimulatorRoutes(app, routeDeps),
    delivery,
    credentials,
    payouts: createSimulatedBank(),
  };
}
