import type { SmsSimulator, SmsSimulatorOptions } from '@exchange/server/provider-kit';
import { SMS_SIM_PREFIX, smsSimulatorRoutes } from './routes.ts';
import { loadSmsCredentials, messageKey } from './store.ts';

/**
 * The SMS simulator: Twilio's Programmable Messaging as its API answers (auth, validation with Twilio's error
 * codes, its test credentials' magic numbers, statuses queued → sent → delivered), and the developer's phone
 * inbox that shows each message's text once. Its state is in PostgreSQL (`smssim_messages`, sealed at rest).
 */

export { MAGIC_RECIPIENTS, SMS_SIM_PREFIX } from './routes.ts';

/** Nothing to deliver: status callbacks are kept with the message, not sent. */
const NO_DELIVERY = {
  start() {},
  async stop() {},
  kick() {},
  async idle() {},
};

/** Builds the simulator over a database: the routes to mount at {@link SMS_SIM_PREFIX} and its credentials. */
export async function createSmsSimulator(options: SmsSimulatorOptions): Promise<SmsSimulator> {
  const credentials = await loadSmsCredentials(options.db);
  const key = messageKey(credentials);
  return {
    prefix: SMS_SIM_PREFIX,
    routes: (app) =>
      smsSimulatorRoutes(app, {
        db: options.db,
        credentials,
        key,
        requestsPerSecond: options.requestsPerSecond ?? 100,
      }),
    delivery: NO_DELIVERY,
    credentials,
  };
}
