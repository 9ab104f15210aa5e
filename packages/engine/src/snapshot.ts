/** Reading the engine state out, and loading it back in. */

import { Order } from './order.ts';
import { isStop, triggersDown } from './orders.ts';
import type { CoreState, SystemAccounts } from './state.ts';
import type { EngineSnapshot, EngineState, OrderView } from './types.ts';

const SYSTEM: Array<keyof SystemAccounts> = ['fees', 'external', 'card', 'swap'];

/** Config + state of a running engine. */
export function exportSnapshot(st: CoreState): EngineSnapshot {
  const balances: EngineState['balances'] = [];
  const levels: Array<[number, number]> = [];
  const users = [...st.users.values()].sort((a, b) => a.id - b.id);
  for (const a of users) {
    if (a.level !== 0) levels.push([a.id, a.level]);
    for (let ci = 0; ci < st.curIds.length; ci++) {
      const balance = a.main[ci] as bigint;
      const locked = a.locked[ci] as bigint;
      if (balance !== 0n || locked !== 0n) {
        balances.push({ user: a.id, currency: st.curIds[ci] as string, balance, locked });
      }
    }
  }
  const system: EngineState['system'] = [];
  for (const account of SYSTEM) {
    st.sys[account].forEach((amount, ci) => {
      if (amount !== 0n) system.push({ account, currency: st.curIds[ci] as string, amount });
    });
  }
  const lastPrices: EngineState['lastPrices'] = [];
  for (const m of st.markets.values())
    if (m.lastPrice !== null) lastPrices.push({ market: m.id, price: m.lastPrice });
  const orders = [...st.orders.values()].sort((a, b) => a.id - b.id).map((o) => o.view());
  const withdrawals: EngineState['withdrawals'] = [];
  for (const [withdrawalId, w] of st.withdrawals) {
    withdrawals.push({
      withdrawalId,
      user: w.acct.id,
      currency: st.curIds[w.cur] as string,
      amount: w.amount,
    });
  }
  return {
    config: {
      currencies: st.currencies.map((c) => ({ ...c })),
      markets: [...st.markets.values()].map((m) => ({ ...m.cfg, state: m.state })),
      fees: {
        defaultMaker: st.feeDefaults.maker,
        defaultTaker: st.feeDefaults.taker,
        rules: st.feeRules.map((r) => ({ ...r })),
      },
      tradingLevels: levels,
      cardCurrency: st.cardCur < 0 ? 'usdt' : (st.curIds[st.cardCur] as string),
    },
    state: {
      nextOrderId: st.nextOrderId,
      nextTradeId: st.nextTradeId,
      nextSeq: st.nextSeq,
      balances,
      system,
      lastPrices,
      orders,
      withdrawals,
    },
  };
}

function fail(msg: string): never {
  throw new Error(`engine restore: ${msg}`);
}

function restoreOrder(st: CoreState, v: OrderView): Order {
  const m = st.markets.get(v.market) ?? fail(`order ${v.id}: unknown market ${v.market}`);
  if (v.state !== 'wait' && v.state !== 'pending') fail(`order ${v.id}: state ${v.state} is not open`);
  if (v.remainingVolume <= 0n || v.remainingVolume + v.executedVolume !== v.originVolume) {
    fail(`order ${v.id}: inconsistent volumes`);
  }
  if (v.id >= st.nextOrderId || v.seq >= st.nextSeq) fail(`order ${v.id}: id/seq beyond counters`);
  const o = new Order(
    v.id,
    st.account(v.user),
    m,
    v.side,
    v.ordType,
    v.price,
    v.stopPrice,
    v.originVolume,
    v.locked,
    v.createdAt,
    v.makerFee,
    v.takerFee,
    v.seq,
  );
  o.remainingVolume = v.remainingVolume;
  o.executedVolume = v.executedVolume;
  o.quoteTotal = v.side === 'buy' ? v.fundsSpent : v.fundsReceived;
  if (o.fundsReceived !== v.fundsReceived || o.fundsSpent !== v.fundsSpent) {
    fail(`order ${v.id}: base funds do not match executed volume`);
  }
  o.tradesCount = v.tradesCount;
  o.state = v.state;
  o.updatedAt = v.updatedAt;
  o.triggeredAt = v.triggeredAt;
  // Snapshots written before these fields existed hold only gtc orders that are not post-only.
  const tif = v.timeInForce ?? 'gtc';
  if (tif !== 'gtc') fail(`order ${v.id}: an open order is ${tif}`);
  o.postOnly = v.postOnly === true;
  return o;
}

/** Load persisted state into a freshly configured core. Throws if the state is inconsistent. */
export function importState(st: CoreState, s: EngineState): void {
  st.nextOrderId = s.nextOrderId;
  st.nextTradeId = s.nextTradeId;
  st.nextSeq = s.nextSeq;
  const cur = (id: string): number => st.curIdx.get(id) ?? fail(`unknown currency ${id}`);
  for (const b of s.balances) {
    const a = st.account(b.user);
    const ci = cur(b.currency);
    if (b.balance < 0n || b.locked < 0n) fail(`negative balance of user ${b.user}`);
    a.main[ci] = b.balance;
    a.locked[ci] = b.locked;
  }
  for (const x of s.system) st.sys[x.account][cur(x.currency)] = x.amount;
  for (const lp of s.lastPrices) {
    const m = st.markets.get(lp.market) ?? fail(`unknown market ${lp.market}`);
    m.lastPrice = lp.price;
  }
  for (const w of s.withdrawals) {
    if (st.withdrawals.has(w.withdrawalId)) fail(`duplicate withdrawal ${w.withdrawalId}`);
    st.withdrawals.set(w.withdrawalId, { acct: st.account(w.user), cur: cur(w.currency), amount: w.amount });
  }
  const orders = s.orders.map((v) => restoreOrder(st, v));
  // Book and stop-set FIFO order comes from seq.
  for (const o of [...orders].sort((a, b) => a.seq - b.seq)) {
    if (st.orders.has(o.id)) fail(`duplicate order ${o.id}`);
    st.orders.set(o);
    if (isStop(o.ordType) && o.triggeredAt === null) {
      (triggersDown(o.ordType, o.side) ? o.mkt.stopsDown : o.mkt.stopsUp).append(o, o.stopPrice as bigint);
    } else {
      if (o.price === null) fail(`order ${o.id}: a resting order needs a price`);
      (o.side === 'buy' ? o.mkt.book.bids : o.mkt.book.asks).append(o, o.price);
    }
  }
  // User lists in id order (CancelAll order).
  for (const o of orders.sort((a, b) => a.id - b.id)) o.acct.linkOrder(o);
  // Every locked unit must belong to an open order or a held withdrawal.
  const held = new Map<string, bigint>();
  const add = (user: number, ci: number, x: bigint) => {
    const k = `${user}:${ci}`;
    held.set(k, (held.get(k) ?? 0n) + x);
  };
  for (const o of orders) add(o.acct.id, o.side === 'buy' ? o.mkt.quoteIdx : o.mkt.baseIdx, o.locked);
  for (const w of st.withdrawals.values()) add(w.acct.id, w.cur, w.amount);
  for (const a of st.users.values()) {
    a.locked.forEach((l, ci) => {
      if ((held.get(`${a.id}:${ci}`) ?? 0n) !== l)
        fail(`user ${a.id} ${st.curIds[ci]}: locked does not match holds`);
    });
  }
}
