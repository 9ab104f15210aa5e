import type { AdminMarketEntity, AdminNetworkEntity } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/**
 * A market with its fees: its own rule for any level, else the exchange's default rule, else the engine's
 * built-in default (0.1%).
 */
const MARKETS = `select m.id, m.base_unit, m.quote_unit, m.amount_precision::int, m.price_precision::int,
    trim_scale(m.min_price)::text as min_price, trim_scale(m.max_price)::text as max_price,
    trim_scale(m.min_amount)::text as min_amount, m.state,
    trim_scale(coalesce(f.maker, d.maker, 0.001))::text as maker_fee,
    trim_scale(coalesce(f.taker, d.taker, 0.001))::text as taker_fee
  from markets m
  left join trading_fees f on f.market_id = m.id and f."group" = 'any'
  left join trading_fees d on d.market_id = 'any' and d."group" = 'any'`;

/** Every market, in display order. */
export async function listMarkets(db: pg.Pool): Promise<AdminMarketEntity[]> {
  return (await db.query<AdminMarketEntity>(`${MARKETS} order by m.position, m.id`)).rows;
}

/** One market, or undefined. */
export async function findMarket(db: pg.Pool, id: string): Promise<AdminMarketEntity | undefined> {
  return (await db.query<AdminMarketEntity>(`${MARKETS} where m.id = $1`, [id])).rows[0];
}

/** The number of decimals of a currency, or undefined for an unknown currency. */
export async function currencyPrecision(db: pg.Pool | Tx, id: string): Promise<number | undefined> {
  return (await db.query<{ precision: number }>('select precision from currencies where id = $1', [id]))
    .rows[0]?.precision;
}

const NETWORKS = `select n.currency_id as currency, n.blockchain_key, c.precision::int, n.deposit_enabled,
    n.withdraw_enabled, trim_scale(n.withdraw_fee)::text as withdraw_fee, trim_scale(n.deposit_fee)::text as deposit_fee,
    trim_scale(n.min_withdraw_amount)::text as min_withdraw_amount,
    trim_scale(n.min_deposit_amount)::text as min_deposit_amount
  from currency_networks n join currencies c on c.id = n.currency_id`;

/** Every currency's networks, in the currencies' display order. */
export async function listNetworks(db: pg.Pool): Promise<AdminNetworkEntity[]> {
  return (await db.query<AdminNetworkEntity>(`${NETWORKS} order by c.position, c.id, n.blockchain_key`)).rows;
}

/** One network, locked for an update in `tx`. */
export async function lockNetwork(
  tx: Tx,
  currency: string,
  blockchainKey: string,
): Promise<AdminNetworkEntity | undefined> {
  return (
    await tx.query<AdminNetworkEntity>(
      `${NETWORKS} where n.currency_id = $1 and n.blockchain_key = $2 for update of n`,
      [currency, blockchainKey],
    )
  ).rows[0];
}

/** The columns staff may change on a network. */
export const NETWORK_COLUMNS = [
  'deposit_enabled',
  'withdraw_enabled',
  'withdraw_fee',
  'deposit_fee',
  'min_withdraw_amount',
  'min_deposit_amount',
] as const;
export type NetworkColumn = (typeof NETWORK_COLUMNS)[number];

/** Sets the given columns of one network (names from {@link NETWORK_COLUMNS} only; values as parameters). */
export async function updateNetwork(
  tx: Tx,
  currency: string,
  blockchainKey: string,
  change: Partial<Record<NetworkColumn, boolean | string>>,
): Promise<void> {
  const columns = NETWORK_COLUMNS.filter((c) => change[c] !== undefined);
  if (columns.length === 0) return;
  const set = columns.map((c, i) => `${c} = $${i + 3}`).join(', ');
  await tx.query(`update currency_networks set ${set} where currency_id = $1 and blockchain_key = $2`, [
    currency,
    blockchainKey,
    ...columns.map((c) => change[c]),
  ]);
}
