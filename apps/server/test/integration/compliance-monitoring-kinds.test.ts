import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/modules/identity/passwords.ts';
import { cardSuite, USDT } from '../support/card.ts';
import { monitorOf } from '../support/monitoring.ts';
import { adminCall, type Person, person, stepUp } from '../support/staff.ts';
import { type Member, member, peatio } from '../support/wallet.ts';

/**
 * Transaction monitoring on the operation kinds that compliance-monitoring.test.ts (bank deposits, a crypto
 * withdrawal) does not make: an internal transfer (both sides), a swap and a card top-up, each made through the
 * customer's own route and valued in exact EUR cents from a currency other than EUR. USDT is valued at
 * CARD_EUR_PER_USDT 0.92 (no USDT/EUR market): 16,304.35 USDT is EUR 15,000.002 (an alert at EUR 15,000.00) and
 * 16,304.34 USDT is EUR 14,999.9928 (one cent under: none).
 */
const s = cardSuite({
  AML_MONITOR_INTERVAL_MS: '0',
  AML_HIGH_RISK_COUNTRIES: 'IR,KP',
  CARD_EUR_PER_USDT: '0.92',
  CARD_TOPUP_LIMIT: '20000',
  CARD_LOAD_LIMIT: '40000',
  RATE_LIMITS: 'false',
});
const PASSWORD = 'Monitoring-pass1';
const AT_THRESHOLD = '16304.35';
const CENT_UNDER = '16304.34';

type Alert = { email: string; rule: string; eur: string | null; facts: Record<string, unknown> };
let officer: Person;

beforeAll(async () => {
  officer = await person(s.t, 'officer@kinds.test', 'compliance');
  await stepUp(s.t, officer);
});

/** Runs a monitoring pass, then the alerts of `who` as the console lists them (rule, EUR, kind). */
async function alertsAfterScan(who: Member) {
  await monitorOf(s.t).scan();
  const res = await adminCall(s.t, 'GET', '/monitoring/alerts?state=all&limit=1000', officer.headers);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Alert[])
    .filter((a) => a.email === who.email)
    .map((a) => [a.rule, a.eur, a.facts.kind])
    .sort();
}

/** A level-3 member with the transfer password and `usdt` whole USDT, with a profile in `country`. */
async function funded(email: string, usdt: bigint, country = 'PL'): Promise<Member> {
  const who = await member(s.t, email);
  await s.db.query('update users set password_digest = $2 where id = $1', [
    who.id,
    await hashPassword(PASSWORD),
  ]);
  await s.db.query(
    `insert into profiles (user_id, first_name, last_name, country) values ($1, 'A', 'B', $2)`,
    [who.id, country],
  );
  if (usdt > 0n) await s.credit(who, usdt * USDT);
  return who;
}

const transfer = (who: Member, recipient: string, amount: string) =>
  peatio(s.t, who, 'POST', '/account/internal_transfers', {
    currency: 'usdt',
    password: PASSWORD,
    recipient,
    amount,
  });

describe('monitoring of each kind of operation', () => {
  it('an internal transfer: the sender (transfer_out) and the recipient (transfer_in), at EUR 15,000.00', async () => {
    const sender = await funded('sender@kinds.test', 20_000n);
    const recipient = await funded('recipient@kinds.test', 0n);
    const res = await transfer(sender, recipient.email, AT_THRESHOLD);
    expect(res.statusCode, res.body).toBe(201);
    expect(await alertsAfterScan(sender)).toEqual([['threshold.single', '15000', 'transfer_out']]);
    expect(await alertsAfterScan(recipient)).toEqual([['threshold.single', '15000', 'transfer_in']]);

    // One cent under: nothing, on either side.
    const small = await funded('small-sender@kinds.test', 20_000n);
    const smallRecipient = await funded('small-recipient@kinds.test', 0n);
    expect((await transfer(small, smallRecipient.email, CENT_UNDER)).statusCode).toBe(201);
    expect(await alertsAfterScan(small)).toEqual([]);
    expect(await alertsAfterScan(smallRecipient)).toEqual([]);
  });

  it("an internal transfer to a customer in a high-risk country: the territory rule on the sender's side", async () => {
    const sender = await funded('to-iran@kinds.test', 100n);
    const recipient = await funded('in-iran@kinds.test', 0n, 'IR');
    expect((await transfer(sender, recipient.email, '10')).statusCode).toBe(201);
    expect(await alertsAfterScan(sender)).toEqual([['territory.high_risk', '9.2', 'transfer_out']]);
    // The recipient's counterparty (the sender, in PL) is not on the list.
    expect(await alertsAfterScan(recipient)).toEqual([]);
  });

  it('a swap, valued from the currency it sells (TRX at the best bid of 0.1 USDT, times 0.92)', async () => {
    // A bid of 0.1 USDT per TRX gives TRX its price; the swap pays out of the swap liquidity account.
    const maker = await funded('maker@kinds.test', 30_000n);
    const bid = await peatio(s.t, maker, 'POST', '/market/orders', {
      market: 'trxusdt',
      side: 'buy',
      volume: '200000',
      price: '0.1',
    });
    expect(bid.statusCode, bid.body).toBe(201);
    await s.t.deps.core.sequencer.submit({ type: 'FundLiquidity', currency: 'usdt', amount: 40_000n * USDT });

    const swap = async (who: Member, trx: string) => {
      await s.t.deps.core.sequencer.submit({
        type: 'Credit',
        user: who.id,
        currency: 'trx',
        amount: 200_000n * 1_000_000n,
        kind: 'deposit',
      });
      const q = `/account/amount_quote?from_currency=trx&to_currency=usdt&amount=${trx}`;
      const quote = (await peatio(s.t, who, 'GET', q)).json();
      const done = await peatio(s.t, who, 'POST', '/account/swaps', {
        from_currency: 'trx',
        to_currency: 'usdt',
        amount: trx,
        quote_id: quote.quote_id,
      });
      expect(done.statusCode, done.body).toBe(201);
      expect(done.json().state).toBe('completed');
    };
    // 163,043.48 TRX × 0.1 × 0.92 = EUR 15,000.00016; 163,043.47 TRX = EUR 14,999.99924.
    const at = await funded('swapper@kinds.test', 0n);
    await swap(at, '163043.48');
    expect(await alertsAfterScan(at)).toEqual([['threshold.single', '15000', 'swap']]);
    const under = await funded('small-swapper@kinds.test', 0n);
    await swap(under, '163043.47');
    expect(await alertsAfterScan(under)).toEqual([]);
    // The maker's resting bid is left to the end of the file (nothing trades against it).
  });

  it('a card top-up, valued from the USDT that reaches the card', async () => {
    const topUp = async (email: string, usdt: string) => {
      const who = await s.approved(email, 20_000n * USDT);
      const card = await s.activeCard(who);
      const res = await s.topup(who, card, usdt);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ aasm_state: 'submitted', amount: usdt });
      return who;
    };
    const at = await topUp('topup@kinds.test', AT_THRESHOLD);
    expect(await alertsAfterScan(at)).toEqual([['threshold.single', '15000', 'card_topup']]);
    const under = await topUp('small-topup@kinds.test', CENT_UNDER);
    expect(await alertsAfterScan(under)).toEqual([]);
  });
});
