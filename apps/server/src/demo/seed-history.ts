import { toUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../core/index.ts';
import { DEMO_BOOKS } from '../db/seed-data.ts';
import type { BotAccounts } from './accounts.ts';
import { marketsWithTrades } from './demo-repository.ts';
import { pastTrades } from './history.ts';

/** What seeding the history did, for the start-up log. */
export interface HistorySeeded {
  markets: string[];
  trades: number;
  /** Orders the core refused, by code: none unless a float ran dry. */
  refused: Record<string, number>;
}

/**
 * Gives each demo market {@link pastTrades}, passed through the core like any trade: for each, the maker
 * account places a limit order at the trade's price and the taker account meets it with a market order, both
 * stamped with the trade's time. So the ledger, the fees, the k-lines and the tickers are all real. Only a market
 * without a single trade gets a history (a fresh database), and before the demo book exists, so the walk's
 * orders meet only each other; a database that already has trades is left as it is.
 */
export async function seedDemoHistory(
  core: Core,
  db: pg.Pool,
  bots: BotAccounts,
  end: number,
): Promise<HistorySeeded> {
  // One index probe per market: this runs at every start, on tables that only grow.
  const skip = await marketsWithTrades(db);
  const seeded: HistorySeeded = { markets: [], trades: 0, refused: {} };
  const submissions: Promise<string | null>[] = [];
  for (const book of DEMO_BOOKS) {
    const info = core.markets.get(book.market);
    if (!info || skip.has(book.market)) continue;
    const maxVolume = toUnits(book.volume, info.amountPrecision);
    const minAmount = toUnits(info.minAmount, info.amountPrecision);
    const trades = pastTrades(
      {
        id: book.market,
        mid: toUnits(book.mid, info.pricePrecision),
        minPrice: 1n,
        minVolume: maxVolume / 20n > minAmount ? maxVolume / 20n : minAmount,
        maxVolume,
      },
      end,
    );
    for (const trade of trades) {
      const maker = core.sequencer.submitDated(
        {
          type: 'PlaceOrder',
          user: Number(bots.maker.id),
          market: book.market,
          side: trade.takerSide === 'buy' ? 'sell' : 'buy',
          ordType: 'limit',
          price: trade.price,
          volume: trade.volume,
        },
        trade.at,
      );
      const taker = core.sequencer.submitDated(
        {
          type: 'PlaceOrder',
          user: Number(bots.taker.id),
          market: book.market,
          side: trade.takerSide,
          ordType: 'market',
          volume: trade.volume,
        },
        trade.at,
      );
      submissions.push(...[maker, taker].map((p) => p.then((r) => (r.ok ? null : (r.code ?? 'refused')))));
    }
    seeded.markets.push(book.market);
    seeded.trades += trades.length;
  }
  for (const code of await Promise.all(submissions))
    if (code !== null) seeded.refused[code] = (seeded.refused[code] ?? 0) + 1;
  return seeded;
}
