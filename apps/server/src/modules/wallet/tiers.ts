import { formatUnits, toUnits } from '@exchange/shared';
import type pg from 'pg';
import { hotWallet } from './addresses.ts';
import { raiseCurrencyAlert, resolveHotWalletLow } from './chain-alerts-repository.ts';
import type { Network } from './chains.ts';
import { coldTransferPending, insertColdTransfer, walletLimits } from './hot-wallet-repository.ts';

/**
 * The hot wallet's bounds per network and currency (`wallet_limits`): above `hot_max` the excess goes to the
 * network's watch-only cold address (a `cold` transfer the signer checks against its own configuration); below
 * `hot_min` an alert (`hot_wallet_low`, with the refill needed) is raised for the operator, once until resolved.
 */
export class HotWalletTiers {
  constructor(
    private readonly db: pg.Pool,
    private readonly network: Network,
    private readonly log: { warn(message: string): void },
  ) {}

  async tick(): Promise<void> {
    const { db, network } = this;
    const limits = await walletLimits(db, network.key);
    if (limits.length === 0) return;
    const hot = await hotWallet(db, network);
    for (const limit of limits) {
      const currency: string = limit.currency_id;
      const precision = network.currencies.get(currency);
      if (precision === undefined) continue;
      const balance = await network.chain.balance(hot.address, currency);
      if (limit.hot_min !== null)
        await this.low(currency, balance, toUnits(limit.hot_min, precision), precision);
      if (limit.hot_max === null) continue;
      const excess = balance - toUnits(limit.hot_max, precision);
      if (excess <= 0n) continue;
      if (!limit.cold) {
        await this.alert('cold_not_configured', currency, { balance: formatUnits(balance, precision) });
        continue;
      }
      // One cold transfer per currency at a time: the balance read next time includes this one's result.
      if (await coldTransferPending(db, network.key, currency)) continue;
      try {
        const { txid } = await network.chain.send({
          purpose: { kind: 'cold' },
          from: hot,
          to: limit.cold,
          currency,
          amount: excess,
        });
        await insertColdTransfer(db, {
          key: network.key,
          currency,
          from: hot.address,
          to: limit.cold,
          amount: formatUnits(excess, precision),
          txid,
        });
      } catch (err) {
        this.log.warn(`${network.key}: moving ${currency} to cold storage failed: ${String(err)}`);
        await this.alert('cold_transfer_failed', currency, { error: String(err).slice(0, 300) });
      }
    }
  }

  /** Raises `hot_wallet_low` while the balance is under the minimum; resolves it once refilled. */
  private async low(currency: string, balance: bigint, minimum: bigint, precision: number): Promise<void> {
    if (balance >= minimum) {
      await resolveHotWalletLow(this.db, this.network.key, currency);
      return;
    }
    await this.alert('hot_wallet_low', currency, {
      balance: formatUnits(balance, precision),
      minimum: formatUnits(minimum, precision),
      refill: formatUnits(minimum - balance, precision),
    });
  }

  /** One open alert per kind and currency: a second is not raised while the first is unresolved. */
  private async alert(kind: string, currency: string, detail: Record<string, string>): Promise<void> {
    await raiseCurrencyAlert(this.db, this.network.key, kind, currency, detail);
  }
}
