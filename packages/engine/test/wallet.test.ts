import { describe, expect, it } from 'vitest';
import { type Command, checkConservation, Engine, Rejection } from '../src/index.ts';
import { AT, fund, limit, ok, rejects, testConfig } from './helpers.ts';

const USDT = 1_000_000n;

function setup(): Engine {
  const e = new Engine(testConfig());
  fund(e, 1, 'usdt', 1000n * USDT);
  return e;
}

describe('credit and debit', () => {
  it('credit moves money from external to the user; debit back', () => {
    const e = setup();
    const r = ok(e, { type: 'Credit', user: 2, currency: 'btc', amount: 5n, kind: 'adjustment', at: AT });
    expect(r.postings).toEqual([
      { account: 'external', currency: 'btc', amount: -5n, cause: 'adjustment', causeId: 0 },
      { account: 'u:2:main', currency: 'btc', amount: 5n, cause: 'adjustment', causeId: 0 },
    ]);
    expect(r.events).toEqual([{ type: 'BalanceChanged', user: 2, currency: 'btc', balance: 5n, locked: 0n }]);
    ok(e, { type: 'Debit', user: 2, currency: 'btc', amount: 5n, kind: 'withdrawal', at: AT });
    expect(e.balance(2, 'btc').balance).toBe(0n);
    expect(e.balances(2)).toEqual([]);
    expect(e.balances(1)).toEqual([{ currency: 'usdt', balance: 1000n * USDT, locked: 0n }]);
    expect(checkConservation(e).totals.find((t) => t.currency === 'btc')?.netExternalFlow).toBe(0n);
  });

  it('rejections', () => {
    const e = setup();
    const C = (o: object) =>
      ({ type: 'Credit', user: 1, currency: 'usdt', amount: 1n, kind: 'deposit', at: AT, ...o }) as Command;
    const D = (o: object) =>
      ({ type: 'Debit', user: 1, currency: 'usdt', amount: 1n, kind: 'withdrawal', at: AT, ...o }) as Command;
    rejects(e, C({ currency: 'xrp' }), Rejection.CurrencyNotFound);
    rejects(e, C({ amount: 0n }), Rejection.NonPositiveAmount);
    rejects(e, C({ amount: -1n }), Rejection.NonPositiveAmount);
    rejects(e, C({ amount: 1 }), Rejection.InvalidCommand);
    rejects(e, C({ kind: 'gift' }), Rejection.InvalidKind);
    rejects(e, C({ user: 'x' }), Rejection.InvalidUser);
    rejects(e, D({ amount: 1000n * USDT + 1n }), Rejection.InsufficientFunds);
    rejects(e, D({ kind: 'deposit' }), Rejection.InvalidKind);
    rejects(e, D({ amount: 0n }), Rejection.NonPositiveAmount);
    rejects(e, D({ currency: 'xrp' }), Rejection.CurrencyNotFound);
    ok(e, limit(1, 'buy', 100n, 10n)); // 1000 units locked: not available for a debit
    rejects(e, D({ amount: 1000n * USDT }), Rejection.InsufficientFunds);
  });
});

describe('withdrawals', () => {
  it('hold → settle sends amount − fee out and fee to the fee account', () => {
    const e = setup();
    ok(e, { type: 'HoldWithdrawal', user: 1, currency: 'usdt', amount: 100n, withdrawalId: 'w1', at: AT });
    expect(e.balance(1, 'usdt')).toEqual({ balance: 1000n * USDT - 100n, locked: 100n });
    const r = ok(e, { type: 'SettleWithdrawal', withdrawalId: 'w1', fee: 7n, at: AT });
    expect(r.postings).toEqual([
      { account: 'u:1:locked', currency: 'usdt', amount: -93n, cause: 'withdrawal', causeId: 0 },
      { account: 'external', currency: 'usdt', amount: 93n, cause: 'withdrawal', causeId: 0 },
      { account: 'u:1:locked', currency: 'usdt', amount: -7n, cause: 'fee', causeId: 0 },
      { account: 'fees', currency: 'usdt', amount: 7n, cause: 'fee', causeId: 0 },
    ]);
    expect(e.balance(1, 'usdt')).toEqual({ balance: 1000n * USDT - 100n, locked: 0n });
    expect(e.systemBalance('fees', 'usdt')).toBe(7n);
    rejects(e, { type: 'SettleWithdrawal', withdrawalId: 'w1', fee: 0n, at: AT }, Rejection.WithdrawNotFound);
  });

  it('hold → settle to another user moves the funds inside the exchange, nothing to external', () => {
    const e = setup();
    ok(e, { type: 'HoldWithdrawal', user: 1, currency: 'usdt', amount: 100n, withdrawalId: 'w1', at: AT });
    rejects(
      e,
      { type: 'SettleWithdrawal', withdrawalId: 'w1', fee: 0n, toUser: 1, at: AT },
      Rejection.InvalidUser,
    );
    const r = ok(e, { type: 'SettleWithdrawal', withdrawalId: 'w1', fee: 0n, toUser: 2, at: AT });
    expect(r.postings).toEqual([
      { account: 'u:1:locked', currency: 'usdt', amount: -100n, cause: 'withdrawal', causeId: 0 },
      { account: 'u:2:main', currency: 'usdt', amount: 100n, cause: 'withdrawal', causeId: 0 },
    ]);
    expect(e.balance(1, 'usdt')).toEqual({ balance: 1000n * USDT - 100n, locked: 0n });
    expect(e.balance(2, 'usdt')).toEqual({ balance: 100n, locked: 0n });
    expect(checkConservation(e).totals.find((t) => t.currency === 'usdt')?.netExternalFlow).toBe(
      1000n * USDT,
    );
  });

  it('hold → release returns the funds', () => {
    const e = setup();
    ok(e, { type: 'HoldWithdrawal', user: 1, currency: 'usdt', amount: 100n, withdrawalId: 'w1', at: AT });
    ok(e, { type: 'ReleaseWithdrawal', withdrawalId: 'w1', at: AT });
    expect(e.balance(1, 'usdt')).toEqual({ balance: 1000n * USDT, locked: 0n });
    rejects(e, { type: 'ReleaseWithdrawal', withdrawalId: 'w1', at: AT }, Rejection.WithdrawNotFound);
  });

  it('a hold from external (funds never credited, sent back) never touches the balance; settle or release to external', () => {
    const e = setup();
    const r = ok(e, {
      type: 'HoldWithdrawal',
      user: 2,
      currency: 'usdt',
      amount: 50n,
      withdrawalId: 'r1',
      fromExternal: true,
      at: AT,
    });
    expect(r.postings).toEqual([
      { account: 'external', currency: 'usdt', amount: -50n, cause: 'withdrawal', causeId: 0 },
      { account: 'u:2:locked', currency: 'usdt', amount: 50n, cause: 'withdrawal', causeId: 0 },
    ]);
    // Held, not available: nothing of it can be traded, transferred or withdrawn by the user.
    expect(e.balance(2, 'usdt')).toEqual({ balance: 0n, locked: 50n });
    rejects(
      e,
      { type: 'Debit', user: 2, currency: 'usdt', amount: 1n, kind: 'withdrawal', at: AT },
      Rejection.InsufficientFunds,
    );
    ok(e, { type: 'SettleWithdrawal', withdrawalId: 'r1', fee: 4n, at: AT });
    expect(e.balance(2, 'usdt')).toEqual({ balance: 0n, locked: 0n });
    expect(e.systemBalance('fees', 'usdt')).toBe(4n);
    expect(checkConservation(e).ok).toBe(true);

    ok(e, {
      type: 'HoldWithdrawal',
      user: 2,
      currency: 'usdt',
      amount: 30n,
      withdrawalId: 'r2',
      fromExternal: true,
      at: AT,
    });
    const back = ok(e, { type: 'ReleaseWithdrawal', withdrawalId: 'r2', toExternal: true, at: AT });
    expect(back.postings).toEqual([
      { account: 'u:2:locked', currency: 'usdt', amount: -30n, cause: 'withdrawal', causeId: 0 },
      { account: 'external', currency: 'usdt', amount: 30n, cause: 'withdrawal', causeId: 0 },
    ]);
    expect(e.balance(2, 'usdt')).toEqual({ balance: 0n, locked: 0n });
    expect(checkConservation(e).ok).toBe(true);
    rejects(
      e,
      {
        type: 'HoldWithdrawal',
        user: 2,
        currency: 'usdt',
        amount: 1n,
        withdrawalId: 'r3',
        fromExternal: 'yes',
        at: AT,
      } as unknown as Command,
      Rejection.InvalidCommand,
    );
    ok(e, {
      type: 'HoldWithdrawal',
      user: 2,
      currency: 'usdt',
      amount: 1n,
      withdrawalId: 'r3',
      fromExternal: true,
      at: AT,
    });
    rejects(
      e,
      { type: 'ReleaseWithdrawal', withdrawalId: 'r3', toExternal: 1, at: AT } as unknown as Command,
      Rejection.InvalidCommand,
    );
  });

  it('rejections', () => {
    const e = setup();
    const H = (o: object) =>
      ({
        type: 'HoldWithdrawal',
        user: 1,
        currency: 'usdt',
        amount: 10n,
        withdrawalId: 'w',
        at: AT,
        ...o,
      }) as Command;
    rejects(e, H({ amount: 1000n * USDT + 1n }), Rejection.WithdrawInsufficientBalance);
    rejects(e, H({ amount: 0n }), Rejection.WithdrawNonPositiveAmount);
    rejects(e, H({ currency: 'zzz' }), Rejection.CurrencyNotFound);
    rejects(e, H({ withdrawalId: 5 }), Rejection.InvalidCommand);
    ok(e, H({}));
    rejects(e, H({}), Rejection.WithdrawDuplicate);
    rejects(
      e,
      { type: 'SettleWithdrawal', withdrawalId: 'w', fee: 11n, at: AT },
      Rejection.WithdrawInvalidFee,
    );
    rejects(
      e,
      { type: 'SettleWithdrawal', withdrawalId: 'w', fee: -1n, at: AT },
      Rejection.WithdrawInvalidFee,
    );
    ok(e, { type: 'SettleWithdrawal', withdrawalId: 'w', fee: 10n, at: AT });
  });
});

describe('internal transfer', () => {
  it('moves balance between users without fee', () => {
    const e = setup();
    const r = ok(e, {
      type: 'InternalTransfer',
      from: 1,
      to: 2,
      currency: 'usdt',
      amount: 300n,
      ref: 't1',
      at: AT,
    });
    expect(r.ref).toBe('t1');
    expect(e.balance(2, 'usdt').balance).toBe(300n);
    expect(e.balance(1, 'usdt').balance).toBe(1000n * USDT - 300n);
  });
  it('rejections', () => {
    const e = setup();
    const T = (o: object) =>
      ({ type: 'InternalTransfer', from: 1, to: 2, currency: 'usdt', amount: 1n, at: AT, ...o }) as Command;
    rejects(e, T({ to: 1 }), Rejection.TransferToSelf);
    rejects(e, T({ amount: 0n }), Rejection.TransferNonPositiveAmount);
    rejects(e, T({ amount: 1000n * USDT + 1n }), Rejection.TransferInsufficientBalance);
    rejects(e, T({ from: 2, to: 1 }), Rejection.TransferInsufficientBalance);
    rejects(e, T({ currency: 'q' }), Rejection.CurrencyNotFound);
    rejects(e, T({ to: -2 }), Rejection.InvalidUser);
  });
});

describe('card', () => {
  it('top-up moves amount to the card float and fee to fees; the invariant counts the float', () => {
    const e = setup();
    const r = ok(e, { type: 'CardTopUp', user: 1, amount: 50n * USDT, fee: USDT, at: AT });
    expect(r.postings).toEqual([
      { account: 'u:1:main', currency: 'usdt', amount: -50n * USDT, cause: 'card_topup', causeId: 0 },
      { account: 'card', currency: 'usdt', amount: 50n * USDT, cause: 'card_topup', causeId: 0 },
      { account: 'u:1:main', currency: 'usdt', amount: -USDT, cause: 'fee', causeId: 0 },
      { account: 'fees', currency: 'usdt', amount: USDT, cause: 'fee', causeId: 0 },
    ]);
    expect(e.balance(1, 'usdt').balance).toBe(949n * USDT);
    const t = checkConservation(e).totals.find((x) => x.currency === 'usdt');
    // Σ users + fees + swap == net external flow − card loads
    expect(t && t.users + t.fees + t.swap).toBe(1000n * USDT - 50n * USDT);
    ok(e, { type: 'CardFee', user: 1, amount: 10n * USDT, at: AT });
    expect(e.systemBalance('fees', 'usdt')).toBe(11n * USDT);
    ok(e, { type: 'CardRefund', user: 1, amount: 20n * USDT, at: AT });
    expect(e.systemBalance('card', 'usdt')).toBe(30n * USDT);
  });
  it('rejections', () => {
    const e = setup();
    rejects(
      e,
      { type: 'CardTopUp', user: 1, amount: 1000n * USDT, fee: 1n, at: AT },
      Rejection.CardInsufficientBalance,
    );
    rejects(e, { type: 'CardTopUp', user: 1, amount: 0n, fee: 0n, at: AT }, Rejection.CardNonPositiveAmount);
    rejects(e, { type: 'CardTopUp', user: 1, amount: 1n, fee: -1n, at: AT }, Rejection.CardInvalidFee);
    rejects(e, { type: 'CardFee', user: 1, amount: 1001n * USDT, at: AT }, Rejection.CardInsufficientBalance);
    rejects(e, { type: 'CardFee', user: 1, amount: -1n, at: AT }, Rejection.CardNonPositiveAmount);
    rejects(e, { type: 'CardRefund', user: 1, amount: 1n, at: AT }, Rejection.CardInsufficientFloat);
    const noCard = new Engine(testConfig({ cardCurrency: 'eur' }));
    rejects(noCard, { type: 'CardFee', user: 1, amount: 1n, at: AT }, Rejection.CurrencyNotFound);
  });
});
