import type { ComponentHealth } from '@exchange/shared';
import { pingDatabase } from '../../db/pool.ts';
import type { AdminRouteDeps } from './deps.ts';
import { operatorCounts } from './health-repository.ts';

export type { ComponentHealth };

/**
 * The health of each part, checked now: the database (a round trip), the core (its term and queue), each chain
 * watcher (its height; stalled when it has not finished a pass for a while), the providers' webhooks we received
 * (those of the last day about an applicant or a card we do not know) and the withdrawals needing an operator (errored, or waiting for review).
 */
export async function componentHealth(deps: AdminRouteDeps): Promise<ComponentHealth[]> {
  const out: ComponentHealth[] = [];
  const started = process.hrtime.bigint();
  try {
    await pingDatabase(deps.db);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    out.push({ component: 'database', status: ms < 500 ? 'ok' : 'degraded', detail: `${ms.toFixed(1)} ms` });
  } catch (err) {
    out.push({ component: 'database', status: 'down', detail: String(err).slice(0, 200) });
    return out;
  }
  const sequencer = deps.core.sequencer as { queueDepth?: number; coreTerm: number };
  const queue = sequencer.queueDepth;
  out.push({
    component: 'core',
    status: queue !== undefined && queue > 10_000 ? 'degraded' : 'ok',
    detail: `term ${sequencer.coreTerm}${queue === undefined ? '' : `, ${queue} queued`}`,
  });
  // A watcher that has not finished a pass for a minute (and ten polls) is stuck on its node.
  const stalledAfter = Math.max(60, (10 * deps.config.walletPollMs) / 1000);
  for (const network of deps.wallet.chains.all()) {
    const height = deps.wallet.latestHeight(network.key);
    const lag = deps.wallet.watcherLagSeconds(network.key) ?? 0;
    const stalled = deps.config.walletPollMs > 0 && lag > stalledAfter;
    out.push({
      component: `chain ${network.key}`,
      status: height === undefined || stalled ? 'degraded' : 'ok',
      detail:
        height === undefined ? 'no block seen yet' : `height ${height}, last pass ${Math.round(lag)} s ago`,
    });
  }
  const counts = await operatorCounts(deps.db);
  for (const [name, n] of [
    ['KYC webhooks', counts.kyc],
    ['card webhooks', counts.card],
  ] as const)
    out.push({
      component: name,
      status: n > 0 ? 'degraded' : 'ok',
      detail: `${n} unmatched in the last day`,
    });
  out.push({
    component: 'withdrawals',
    status: counts.errored > 0 ? 'degraded' : 'ok',
    detail: `${counts.errored} errored, ${counts.review} waiting for review`,
  });
  return out;
}
