/** Swap: against the book (an immediate market order with the given fee) or at a quoted price. */
import type { Level } from './book.ts';
import { Rejection, type RejectionCode } from './codes.ts';
import type { SwapOutcome } from './events.ts';
import { available, cause, sysToSys, sysToUser, userToSys } from './ledger.ts';
import { type MarketRt, pow10 } from './market-rt.ts';
import { execute, feeOf } from './matching.ts';
import { openOrder, validUser } from './orders.ts';
import type { CoreState, Tx } from './state.ts';
import type { Swap } from './types.ts';

const PRICE_SCALE = 100_000_000n;

function findMarket(st: CoreState, from: string, to: string): { m: MarketRt; sell: boolean } | null {
  for (const m of st.markets.values()) {
    if (m.base === from && m.quote === to) return { m, sell: true };
    if (m.base === to && m.quote === from) return { m, sell: false };
  }
  return null;
}

/** The largest volume `budget` quote units buy by walking the asks, and its exact cost. */
function affordable(m: MarketRt, budget: bigint): { vol: bigint; cost: bigint } {
  const arr = m.book.asks.levels;
  let left = budget;
  let vol = 0n;
  for (let i = arr.length - 1; i >= 0; i--) {
    const l = arr[i] as Level;
    const unit = l.price * m.qm;
    const full = unit * l.volume;
    if (full <= left) {
      vol += l.volume;
      left -= full;
      continue;
    }
    const take = left / unit;
    vol += take;
    left -= take * unit;
    break;
  }
  return { vol, cost: budget - left };
}

function swapBook(st: CoreState, tx: Tx, c: Swap): RejectionCode | SwapOutcome {
  const found = findMarket(st, c.from, c.to);
  if (found === null) return Rejection.SwapMarketNotFound;
  const { m, sell } = found;
  if (m.state !== 'enabled') return Rejection.MarketDisabled;
  let vol: bigint;
  let lock: bigint;
  if (sell) {
    if (c.amount % m.bm !== 0n) return Rejection.SwapInvalidPrecision;
    vol = c.amount / m.bm;
    lock = c.amount;
    if (vol < m.cfg.minAmount) return Rejection.SwapAmountTooSmall;
    if (m.book.bids.size === 0) return Rejection.SwapInsufficientLiquidity;
  } else {
    if (m.book.asks.size === 0) return Rejection.SwapInsufficientLiquidity;
    const a = affordable(m, c.amount);
    vol = a.vol;
    lock = a.cost;
    if (vol === 0n || vol < m.cfg.minAmount) return Rejection.SwapAmountTooSmall;
  }
  if (available(st, c.user, sell ? m.baseIdx : m.quoteIdx) < c.amount)
    return Rejection.SwapInsufficientBalance;
  const o = openOrder(st, tx, m, c.user, sell ? 'sell' : 'buy', 'market', null, null, vol, lock, c.feePpm);
  const firstEvent = tx.nEvents;
  execute(st, tx, m, o);
  let fee = 0n;
  for (let i = firstEvent; i < tx.nEvents; i++) {
    const e = tx.events[i];
    if (e !== undefined && e.type === 'Trade' && e.takerOrderId === o.id) fee += e.takerFee;
  }
  return {
    from: c.from,
    to: c.to,
    given: o.fundsSpent,
    received: o.fundsReceived - fee,
    fee,
    orderId: o.id,
  };
}

function swapAtPrice(
  st: CoreState,
  tx: Tx,
  c: Swap,
  price: bigint,
  scale: bigint = PRICE_SCALE,
): RejectionCode | SwapOutcome {
  if (typeof price !== 'bigint' || price <= 0n) return Rejection.SwapInvalidPrice;
  if (typeof scale !== 'bigint' || scale <= 0n) return Rejection.SwapInvalidPrice;
  const fi = st.curIdx.get(c.from) as number;
  const ti = st.curIdx.get(c.to) as number;
  const fromPrec = (st.currencies[fi] as { precision: number }).precision;
  const toPrec = (st.currencies[ti] as { precision: number }).precision;
  const gross = (c.amount * price * pow10(toPrec)) / (pow10(fromPrec) * scale);
  const fee = feeOf(gross, c.feePpm);
  const net = gross - fee;
  if (net <= 0n) return Rejection.SwapAmountTooSmall;
  if (available(st, c.user, fi) < c.amount) return Rejection.SwapInsufficientBalance;
  if ((st.sys.swap[ti] as bigint) < gross) return Rejection.SwapInsufficientLiquidity;
  const acct = st.account(c.user);
  userToSys(st, tx, acct, 'swap', fi, c.amount);
  sysToUser(st, tx, 'swap', acct, ti, net);
  cause(tx, 'fee', 0);
  sysToSys(st, tx, 'swap', 'fees', ti, fee);
  return { from: c.from, to: c.to, given: c.amount, received: net, fee, orderId: null };
}

/** Swap. Returns a rejection code or the outcome. */
export function swap(st: CoreState, tx: Tx, c: Swap): RejectionCode | SwapOutcome {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  if (!st.curIdx.has(c.from) || !st.curIdx.has(c.to)) return Rejection.CurrencyNotFound;
  if (c.from === c.to) return Rejection.SwapSameCurrency;
  if (typeof c.amount !== 'bigint' || typeof c.feePpm !== 'bigint') return Rejection.InvalidCommand;
  if (c.amount <= 0n) return Rejection.SwapNonPositiveAmount;
  if (c.feePpm < 0n || c.feePpm > 1_000_000n) return Rejection.SwapInvalidFee;
  if (c.mode === 'book') return swapBook(st, tx, c);
  if (typeof c.mode !== 'object' || c.mode === null) return Rejection.InvalidCommand;
  return swapAtPrice(st, tx, c, c.mode.price, c.mode.scale);
}
