import { formatUnits, type Portfolio, type PortfolioRow, toUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import { dailyTotals } from './balances-repository.ts';
import { currentSwapPrice } from './swaps.ts';

const SCALE = 100_000_000n;
const DECIMALS = 8;
const VALUE_CURRENCY = 'usdt';

/**
 * Value of one whole unit of `currency` in USDT ×10^8: directly from a market with USDT, else through BTC;
 * 1 when there is no price (docs/wallet.md#data: "1 if none").
 */
export function usdtPrice(core: Core, currency: string): bigint {
  if (currency === VALUE_CURRENCY) return SCALE;
  const direct = currentSwapPrice(core, currency, VALUE_CURRENCY);
  if (direct !== null) return direct;
  const viaBtc = currentSwapPrice(core, currency, 'btc');
  const btc = currentSwapPrice(core, 'btc', VALUE_CURRENCY);
  if (viaBtc !== null && btc !== null) return (viaBtc * btc) / SCALE;
  return SCALE;
}

/** `usdtPrice` as a decimal string. */
export function usdtPriceText(core: Core, currency: string): string {
  return formatUnits(usdtPrice(core, currency), DECIMALS);
}

/** Value of `units` of `currency` in USDT units (precision 6), rounded down. */
export function usdtValue(core: Core, currency: string, units: bigint): bigint {
  const p = core.units.precision(currency);
  const usdtPrec = core.units.precision(VALUE_CURRENCY);
  return (units * usdtPrice(core, currency) * 10n ** BigInt(usdtPrec)) / (10n ** BigInt(p) * SCALE);
}

/**
 * Builds the portfolio (see `Portfolio`) of `userId` from the committed balances at current prices, stamped with
 * the app's clock.
 */
export function portfolio(core: Core, userId: number, clock: Clock): Portfolio {
  const usdtPrec = core.units.precision(VALUE_CURRENCY);
  let sum = 0n;
  const balances: PortfolioRow[] = [];
  for (const b of core.sequencer.state.balances(userId)) {
    const total = b.balance + b.locked;
    if (total === 0n) continue;
    const p = core.units.precision(b.currency);
    const value = usdtValue(core, b.currency, total);
    sum += value;
    balances.push({
      currency: b.currency,
      balance: formatUnits(b.balance, p),
      locked: formatUnits(b.locked, p),
      total: formatUnits(total, p),
      currency_usdt: usdtPriceText(core, b.currency),
      value: formatUnits(value, usdtPrec),
    });
  }
  return {
    currency: VALUE_CURRENCY,
    total: formatUnits(sum, usdtPrec),
    balances,
    at: Math.floor(clock.now() / 1000),
  };
}

/** Per currency the user holds: total (balance + locked) and its USDT value (`/balances/pie_chart`). */
export function pieChart(core: Core, userId: number) {
  const usdtPrec = core.units.precision(VALUE_CURRENCY);
  return core.sequencer.state
    .balances(userId)
    .map((b) => {
      const total = b.balance + b.locked;
      return {
        currency: b.currency,
        total: formatUnits(total, core.units.precision(b.currency)),
        value: formatUnits(usdtValue(core, b.currency, total), usdtPrec),
      };
    })
    .filter((row) => row.total !== '0');
}

/**
 * The user's total in USDT at the end of each of the last `days` days (`/balances/line_chart`), from the ledger,
 * valued at today's prices.
 */
export async function lineChart(db: pg.Pool, core: Core, userId: number, days = 7) {
  await core.sequencer.settled();
  const rows = await dailyTotals(db, `u:${userId}`, days);
  const usdtPrec = core.units.precision(VALUE_CURRENCY);
  const byDay = new Map<string, bigint>();
  for (const r of rows) {
    const sum = byDay.get(r.day) ?? 0n;
    if (r.currency_id === null || !core.units.precisions.has(r.currency_id)) {
      byDay.set(r.day, sum);
      continue;
    }
    if (r.total === null) throw new Error(`no ledger total for ${r.currency_id} on ${r.day}`);
    const units = toUnits(r.total, core.units.precision(r.currency_id));
    byDay.set(r.day, sum + usdtValue(core, r.currency_id, units));
  }
  return [...byDay.entries()].map(([date, value]) => ({ date, value: formatUnits(value, usdtPrec) }));
}
