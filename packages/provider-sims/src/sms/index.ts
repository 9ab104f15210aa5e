import type { SmsSimulator, SmsSimulatorOptions } from '@exchange/server/provider-kit';
import { StatusCallbacks } from './callbacks.ts';
import { SMS_SIM_PREFIX, smsSimulatorRoutes } from './routes.ts';
import { loadSmsCredentials, messageKey } from './store.ts';

/**
 * The SMS simulator: Twilio's Programmable Messaging as its API answers (auth, validation with Twilio's error
 * codes, its test credentials' magic numbers, statuses queued → sent → delivered or undelivered, each change
 * posted to the message's StatusCallback signed as Twilio signs), and the developer's phone inbox that shows each
 * message's text once. Its state is in PostgreSQL (`smssim_messages`, sealed at rest; `smssim_callbacks`).
 */

export { CALLBACK_ATTEMPTS } from './callbacks.ts';
export { MAGIC_RECIPIENTS, SMS_SIM_PREFIX, UNDELIVERED_RECIPIENTS } from './routes.ts';

/**
 * Builds the simulator over a database: the routes to mount at {@link SMS_SIM_PREFIX}, its credentials, and its
 * status callbacks (not started: a background job, or the standalone server, starts them).
 */
export async function createSmsSimulator(options: SmsSimulatorOptions): Promise<SmsSimulator> {
  const credentials = await loadSmsCredentials(options.db);
  const key = messageKey(credentials);
  const delivery = new StatusCallbacks({
    db: options.db,
    authToken: () => credentials.authToken,
    feed: options.feed,
    pollMs: options.pollMs,
    log: options.log,
  });
  return {
    prefix: SMS_SIM_PREFIX,
    routes: (app) =>
      smsSimulatorRoutes(app, {
        db: options.db,
        credentials,
        key,
        requestsPerSecond: options.requestsPerSecond ?? 100,
        kick: () => delivery.kick(),
      }),
    delivery,
    credentials,
  };
}
