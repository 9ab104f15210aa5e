import { loadSimulator } from './compose-providers.ts';
import type { Config } from './config.ts';
import type { openDatabase } from './db/database.ts';
import type { MigrationSet } from './db/migrate.ts';
import { chainSimulatorSchemas } from './modules/wallet/networks.ts';

/**
 * Part of the composition root: which simulators' own migrations a start applies beside the exchange's (issue 34).
 * The simulators' tables are theirs (packages/provider-sims/migrations, packages/chain-sim/migrations), made only
 * when the configuration uses a simulator; the provider simulators' set is loaded through compose-providers.ts,
 * the one file that imports them.
 */

/**
 * Which providers the configuration leaves to their simulator (the same choices as `kycFor`, `cardIssuerFor`,
 * `bankFor`, `travelRuleFor` and `smsFor` make in compose-providers.ts, and `mailFor` in compose-mail.ts).
 */
export function simulatedProviders(config: Config): string[] {
  const simulated: string[] = [];
  if (!(config.kyc.provider === 'sumsub' && config.kyc.sumsub)) simulated.push('kyc');
  if (!(config.card.issuer === 'marqeta' && config.card.marqeta)) simulated.push('card');
  if (!(config.bank.provider === 'external' && config.bank.webhookSecret)) simulated.push('bank');
  if (config.travelRule.protocol !== 'http') simulated.push('travel-rule');
  if (config.sms.provider !== 'outbox' && !(config.sms.provider === 'twilio' && config.sms.twilio))
    simulated.push('sms');
  if (config.mailProvider === 'simulator') simulated.push('mail');
  return simulated;
}

/**
 * The simulators' own migrations (packages/provider-sims/migrations, recorded in `sim_schema_migrations`), for
 * {@link openDatabase} to apply after the exchange's as the owner of the schema, when the configuration mounts any
 * simulator; none when every provider is real, so that such a start neither loads simulator code nor makes a
 * simulator's table. The chain simulators' follow, by the same rule (`chainSimulatorSchemas`).
 */
export async function simulatorSchemas(config: Config): Promise<MigrationSet[]> {
  const chains = await chainSimulatorSchemas(config.chains);
  if (simulatedProviders(config).length === 0) return chains;
  return [(await loadSimulator.schema()).SIMULATOR_MIGRATIONS, ...chains];
}
