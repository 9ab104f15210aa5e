import type { TravelRuleSimulator, TravelRuleSimulatorOptions } from '@exchange/server/provider-kit';
import { TRAVEL_RULE_SIM_PREFIX, travelRuleSimulatorRoutes } from './routes.ts';
import {
  attributeAddress,
  forgetAddress,
  forgetIncoming,
  recordIncoming,
  setBehaviour,
  simulatorContents,
} from './store.ts';

/**
 * The travel-rule simulator: the network of counterparty providers as the travel-rule protocol reaches them (our
 * IVMS 101 messages and their answers, the originator records of incoming transfers), and the operator's desk that
 * says what the network knows. Its state is in PostgreSQL (`travel_rule_sim_*`). It sends no webhooks: the
 * exchange asks, the network answers.
 */

export { TRAVEL_RULE_SIM_PREFIX } from './routes.ts';

/** Nothing to deliver: the travel-rule network only answers the exchange's requests. */
const NO_DELIVERY = {
  start() {},
  async stop() {},
  kick() {},
  async idle() {},
};

/** Builds the simulator over a database: the routes to mount at {@link TRAVEL_RULE_SIM_PREFIX} and its desk. */
export function createTravelRuleSimulator(options: TravelRuleSimulatorOptions): TravelRuleSimulator {
  const { db } = options;
  return {
    prefix: TRAVEL_RULE_SIM_PREFIX,
    routes: (app) => travelRuleSimulatorRoutes(app, { db, holdMs: options.holdMs }),
    delivery: NO_DELIVERY,
    credentials: {},
    desk: {
      attribute: (entry) => attributeAddress(db, entry),
      forgetAddress: (network, address) => forgetAddress(db, network, address),
      behave: (providerId, behaviour) => setBehaviour(db, providerId, behaviour),
      recordIncoming: (entry) => recordIncoming(db, entry),
      forgetIncoming: (transfer) => forgetIncoming(db, transfer),
      contents: () => simulatorContents(db),
    },
  };
}
