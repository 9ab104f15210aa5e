import { cardNetwork } from '@exchange/provider-sims/card-issuer';
import { describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { cardSuite, USDT } from '../support/card.ts';
import type { Member } from '../support/wallet.ts';

// Top-up limits high enough to load more than the card limits allow to spend (5000.00 EUR ≈ 5434.78 USDT).
const s = cardSuite({
  CARD_EUR_PER_USDT: '0.92',
  CARD_TOPUP_LIMIT: '20000',
  CARD_LOAD_LIMIT: '20000',
  RATE_LIMITS: 'false',
});

/** The simulated network's time, when a test names it (the month's limit); the machine's otherwise. */
let networkTime: Date | undefined;

const net = async (command: string, ...args: string[]) => {
  const r = await cardNetwork(s.db, command, args, '0.92', networkTime);
  return { ok: r.ok, ...JSON.parse(r.message.startsWith('{') ? r.message : '{}'), message: r.message };
};

/** A member with a card loaded with `usdt` (settled), active unless told; its masked number and full number. */
const loaded = async (email: string, usdt: string, activate = true) => {
  const who = await s.approved(email, 20_000n * USDT);
  let masked: string;
  if (activate) masked = await s.activeCard(who);
  else {
    const ordered = await s.order(who);
    expect(ordered.statusCode, ordered.body).toBe(201);
    masked = ordered.json().card_number;
  }
  if (usdt !== '0') {
    expect((await s.topup(who, masked, usdt)).statusCode).toBe(201);
    await s.settleTopups();
  }
  return { who, masked, pan: await s.pan(who, masked) };
};

/** The card's balance at the simulator (USDT units) and ours (mirrored), by its masked number. */
const balances = async (who: Member, masked: string) => {
  const token = (await s.row(who, masked)).issuer_token;
  return (
    await s.db.query(
      `select (select balance::text from cardsim_cards where token = $1) as sim,
         (select balance::text from cards where issuer_token = $1) as ours`,
      [token],
    )
  ).rows[0];
};

/** A charge that must be declined for `reason`: on the statement as declined, no balance changed. */
const declined = async (who: Member, masked: string, reason: string, command: string, ...args: string[]) => {
  // The webhooks of what came before are delivered first, so that the balances compared are settled.
  await s.settle();
  const before = await balances(who, masked);
  const spot = s.usdt(who);
  const outcome = await net(command, ...args);
  expect(outcome, outcome.message).toMatchObject({ ok: false, status: 'declined', reason });
  await s.settle();
  expect(await balances(who, masked)).toEqual(before);
  expect(s.usdt(who)).toBe(spot);
  // The statement of the network's day (today's, unless the test names the network's time).
  const day = (networkTime ?? new Date()).toISOString().slice(0, 10);
  const statement = await s.call(who, 'POST', '/account/card_transaction', {
    card_number: masked,
    transaction_type: 'Settled',
    currency: 'EUR',
    date_from: day,
    date_to: day,
  });
  expect(statement.statusCode, statement.body).toBe(200);
  const row = statement.json().items.find((t: { tradeId: string }) => t.tradeId === outcome.trade_id);
  expect(row, `${reason} on the statement`).toMatchObject({ tradeStatus: 'declined' });
  expect(row.remark).toContain(reason);
  return row;
};

describe('card network declines', () => {
  it('card payments: 5000.00 EUR a day (a purchase counts once, not by authorisation and clearing)', async () => {
    const { who, masked, pan } = await loaded('decline-day@example.com', '6000');
    expect(await net('spend', pan, '3000', 'Shop')).toMatchObject({ ok: true, status: 'settled' });
    const second = await net('spend', pan, '2000', 'Shop');
    expect(second).toMatchObject({ ok: true, status: 'settled' });
    const row = await declined(who, masked, 'payments_daily_limit', 'spend', pan, '0.01', 'Shop');
    expect(row).toMatchObject({ tradeType: 150, amount: '-0.01' });
    // A reversed purchase no longer counts towards the limit: 2000.00 can be spent again, not a cent more.
    expect((await net('reverse', second.trade_id)).ok).toBe(true);
    expect(await net('spend', pan, '2000', 'Shop')).toMatchObject({ ok: true, status: 'settled' });
    await declined(who, masked, 'payments_daily_limit', 'spend', pan, '0.01', 'Shop');
    expect(await auditLedger(s.db)).toEqual([]);
  });

  // Earlier spending in the network's month is arranged in the simulator's table directly: a cleared
  // authorisation of 46,500.00 EUR backdated to the first hour of that month (not the network's day, so the daily
  // limit is not what declines). The network's time is the 15th of last month at noon (UTC): never today, and never
  // after the server's today, whose statements refuse a future date; so the test runs on any day of a month (it
  // named the 15th of this month before, and failed from the 1st to the 14th).
  it('all card spending: 50000.00 EUR a month', async () => {
    const { who, masked, pan } = await loaded('decline-month@example.com', '4000');
    const token = (await s.row(who, masked)).issuer_token;
    const now = new Date();
    networkTime = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
    try {
      await s.db.query(
        `insert into cardsim_transactions (token, card_token, type_code, status, eur_cents, usdt_units, rate, merchant,
           created_time)
         values ($1, $2, 150, 'cleared', -4650000, -50543479000, 0.92, 'Earlier this month',
           date_trunc('month', $3::timestamptz at time zone 'utc') at time zone 'utc' + interval '1 hour')`,
        [`txn_month_${token}`, token, networkTime],
      );
      expect(await net('spend', pan, '3000', 'Shop')).toMatchObject({ ok: true });
      expect(await net('atm', pan, '500')).toMatchObject({ ok: true });
      // 46,500 + 3,000 + 500 = 50,000.00: one cent more is over, for a purchase or an ATM withdrawal.
      await declined(who, masked, 'monthly_limit', 'spend', pan, '0.01', 'Shop');
      await declined(who, masked, 'monthly_limit', 'atm', pan, '10');
      // The month's spending is that month's: on the 1st of the next month the same card may spend again.
      networkTime = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 0, 30));
      expect(await net('spend', pan, '10', 'Shop')).toMatchObject({ ok: true });
    } finally {
      networkTime = undefined;
    }
  });

  it('ATM withdrawals: 2000.00 EUR a day', async () => {
    const { who, masked, pan } = await loaded('decline-atm@example.com', '2500');
    expect(await net('atm', pan, '1000')).toMatchObject({ ok: true, status: 'settled' });
    expect(await net('atm', pan, '990')).toMatchObject({ ok: true, status: 'settled' });
    const row = await declined(who, masked, 'atm_daily_limit', 'atm', pan, '10.01');
    expect(row).toMatchObject({ tradeType: 110, amount: '-10.01' });
    expect(await net('atm', pan, '10')).toMatchObject({ ok: true, status: 'settled' });
    await declined(who, masked, 'atm_daily_limit', 'atm', pan, '10');
    // Purchases are not ATM withdrawals: still possible.
    expect(await net('spend', pan, '10', 'Shop')).toMatchObject({ ok: true });
    await s.settle();
  });

  it('a blocked card (loss, SUSPENDED at the issuer) declines purchases and withdrawals', async () => {
    const { who, masked, pan } = await loaded('decline-blocked@example.com', '100');
    const blocked = await s.call(who, 'POST', '/account/report/card_loss', { card_number: masked });
    expect(blocked.json().status).toBe('loss');
    expect((await s.simCard((await s.row(who, masked)).issuer_token)).state).toBe('SUSPENDED');
    await declined(who, masked, 'card_blocked', 'spend', pan, '10', 'Shop');
    await declined(who, masked, 'card_blocked', 'atm', pan, '20');
    expect(await balances(who, masked)).toEqual({ sim: '100000000', ours: '100' });
  });

  it('a card not activated declines', async () => {
    const { who, masked, pan } = await loaded('decline-inactive@example.com', '0', false);
    expect((await s.simCard((await s.row(who, masked)).issuer_token)).state).toBe('UNACTIVATED');
    await declined(who, masked, 'card_not_active', 'spend', pan, '1', 'Shop');
    await declined(who, masked, 'card_not_active', 'atm', pan, '10');
    expect(await balances(who, masked)).toEqual({ sim: '0', ours: '0' });
  });

  it('an expired card declines', async () => {
    const { who, masked, pan } = await loaded('decline-expired@example.com', '100');
    // The simulator's card expired (MMYY) last month or earlier: January 2020.
    await s.db.query(`update cardsim_cards set expiration = '0120' where token = $1`, [
      (await s.row(who, masked)).issuer_token,
    ]);
    await declined(who, masked, 'card_expired', 'spend', pan, '1', 'Shop');
    await declined(who, masked, 'card_expired', 'atm', pan, '10');
    expect(await balances(who, masked)).toEqual({ sim: '100000000', ours: '100' });
    expect(await auditLedger(s.db)).toEqual([]);
  });
});
