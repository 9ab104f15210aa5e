import { luhnValid, MAX_CARDS_PER_USER } from '@exchange/shared';
import { describe, expect, it, vi } from 'vitest';
import { reserveCardSlot } from '../../src/modules/card/repository.ts';
import { cardSuite, SHIPPING, USDT } from '../support/card.ts';

/** Ordering and paying cards: the rules, the fee through the core, the maximum under concurrency, privacy. */
const s = cardSuite();
const FEE = 30n * USDT;
const cardCount = async (userId: number) =>
  (await s.db.query('select count(*)::int as n from cards where user_id = $1', [userId])).rows[0].n;
const simCards = async (userId: number) =>
  (
    await s.db.query(
      `select count(*)::int as n from cardsim_cards c join card_holders h on h.issuer_user_token = c.user_token
       where h.user_id = $1`,
      [userId],
    )
  ).rows[0].n;
const inAYear = () => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString().slice(0, 10);
};

describe('card fee', () => {
  it('answers the configured fees and limits in USDT', async () => {
    const who = await s.member('fee@card.test');
    expect((await s.call(who, 'GET', '/account/card_fee')).json()).toEqual({
      topup_fee: '1',
      topup_limit: '5000',
      load_limit: '10000',
      activation_fee: '10',
      annual_fee: '20',
    });
  });
});

describe('ordering', () => {
  it('needs an approved holder, a valid address and the fees in USDT; a refusal changes nothing', async () => {
    const who = await s.member('order-rules@card.test');
    await s.credit(who, 1000n * USDT);
    const refused = async (body: Record<string, unknown>, code: string) => {
      const res = await s.call(who, 'POST', '/account/card_cost', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().errors).toEqual([code]);
    };
    const order = { shipping_address: SHIPPING, confirmed: true };
    await refused(order, 'account.card.holder_not_approved');
    await s.submitted(who);
    await refused(order, 'account.card.holder_not_approved');
    await s.review(who, 'approve');
    await refused(
      { ...order, shipping_address: { ...SHIPPING, city: ' ' } },
      'account.card.missing_shipping_field',
    );
    await refused(
      { ...order, shipping_address: { ...SHIPPING, post_code: '1234567' } },
      'account.card.invalid_post_code',
    );
    await refused(
      { ...order, shipping_address: { ...SHIPPING, post_code: '10-60' } },
      'account.card.invalid_post_code',
    );
    await refused({ ...order, confirmed: false }, 'account.card.missing_confirmation');
    await refused({ confirmed: true }, 'account.card.missing_shipping_field');

    const poor = await s.approved('order-poor@card.test', 29n * USDT);
    const res = await s.order(poor);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual(['account.card.insufficient_fee_balance']);
    expect(s.usdt(poor)).toBe(29n * USDT);
    expect(await cardCount(poor.id)).toBe(0);
    expect(await simCards(poor.id)).toBe(0);
    expect(await cardCount(who.id)).toBe(0);
  });

  it('orders at the issuer and charges activation plus annual fee through the core: USDT down 30, fees up 30', async () => {
    const who = await s.approved('order@card.test', 100n * USDT);
    const fees = s.feesAccount();
    const res = await s.order(who);
    expect(res.statusCode, res.body).toBe(201);
    const card = res.json();
    const yy = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
    expect(card).toMatchObject({
      status: 'unverified',
      balance: '0',
      next_charge_on: inAYear(),
      fulfillment_status: 'ordered',
    });
    expect(card.card_number).toMatch(/^5300 \*{4} \*{4} \d{4}$/);
    expect(card.expiry_date).toMatch(new RegExp(`^\\d{2}/${yy}$`));
    expect(s.usdt(who)).toBe(100n * USDT - FEE);
    expect(s.feesAccount() - fees).toBe(FEE);

    const list = (await s.call(who, 'GET', '/account/cards')).json();
    expect(list).toEqual([card]);
    const charges = await s.call(
      who,
      'GET',
      `/account/card_charges?card_number=${encodeURIComponent(card.card_number)}`,
    );
    expect(charges.headers.total).toBe('2');
    expect(charges.headers.page).toBe('1');
    expect(charges.headers['per-page']).toBe('10');
    expect(charges.json().map((c: Record<string, string>) => [c.fee_type, c.fee, c.currency])).toEqual([
      ['annual', '20', 'usdt'],
      ['activation', '10', 'usdt'],
    ]);
    expect(charges.json()[0]).toMatchObject({
      card_number: card.card_number,
      fee_deduction_date: new Date().toISOString().slice(0, 10),
    });
    const page2 = await s.call(
      who,
      'GET',
      `/account/card_charges?card_number=${encodeURIComponent(card.card_number)}&page=2&limit=1`,
    );
    expect(page2.json().map((c: { fee_type: string }) => c.fee_type)).toEqual(['activation']);

    // The number: shown to its owner only, Luhn-valid, encrypted at rest, and the reveal is in the security log.
    const reveal = await s.call(
      who,
      'GET',
      `/account/cards/reveal?card_number=${encodeURIComponent(card.card_number)}`,
    );
    expect(reveal.headers['cache-control']).toBe('no-store');
    const pan = reveal.json().card_number as string;
    expect(pan).toMatch(/^530099\d{10}$/);
    expect(luhnValid(pan)).toBe(true);
    expect(reveal.json().expiry_date).toBe(card.expiry_date);
    expect(pan.slice(-4)).toBe(card.card_number.slice(-4));
    const stored = (
      await s.db.query('select row_to_json(c)::text as row from cards c where user_id = $1', [who.id])
    ).rows[0].row as string;
    expect(stored).not.toContain(pan);
    const simRow = (await s.db.query('select row_to_json(c)::text as row from cardsim_cards c')).rows.map(
      (r) => r.row,
    );
    expect(simRow.join()).not.toContain(pan);
    const logged = await s.db.query(
      `select data from activities where user_id = $1 and action = 'card_reveal'`,
      [who.id],
    );
    expect(logged.rows).toEqual([{ data: { card: card.card_number } }]);
    expect((await s.call(who, 'GET', `/account/card_details?card_number=${pan}`)).json()).toEqual({
      card_number: card.card_number,
      balance: '0',
      usdt_balance: '0',
      eur_balance: '0.00',
      total_24h: '0',
      pending_topups: '0',
      expiry_date: card.expiry_date,
      status: 'unverified',
    });
    const missing = await s.call(who, 'GET', '/account/card_details');
    expect(missing.json().errors).toEqual(['account.card.missing_card_number']);
    const sim = await s.simCard((await s.row(who, card.card_number)).issuer_token);
    expect(sim).toEqual({ state: 'UNACTIVATED', fulfillment_status: 'ORDERED' });
  });

  it('when the charge is refused after the card was ordered, the card stays unpaid; paying it later charges once', async () => {
    const who = await s.approved('order-unpaid@card.test', 40n * USDT);
    const issuer = s.t.deps.cardIssuer;
    const original = issuer.createCard.bind(issuer);
    // While the issuer makes the card, the money leaves (a withdrawal elsewhere).
    const spy = vi.spyOn(issuer, 'createCard').mockImplementation(async (input) => {
      await s.t.deps.core.sequencer.submit({
        type: 'Debit',
        user: who.id,
        currency: 'usdt',
        amount: 35n * USDT,
        kind: 'withdrawal',
      });
      return original(input);
    });
    const res = await s.order(who).finally(() => spy.mockRestore());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'unverified',
      next_charge_on: null,
      fulfillment_status: null,
    });
    expect(s.usdt(who)).toBe(5n * USDT);
    const masked = res.json().card_number as string;
    const charges = await s.call(
      who,
      'GET',
      `/account/card_charges?card_number=${encodeURIComponent(masked)}`,
    );
    expect(charges.json()).toEqual([]);
    const pan = await s.pan(who, masked);
    const early = await s.call(who, 'POST', '/account/card_activate', { card_number: pan });
    expect(early.json().errors).toEqual(['account.card.fee_unpaid']);

    const pay = { card_number: masked, shipping_address: SHIPPING, confirmed: true };
    const short = await s.call(who, 'POST', '/account/card_cost', pay);
    expect(short.json().errors).toEqual(['account.card.insufficient_fee_balance']);
    expect(s.usdt(who)).toBe(5n * USDT);
    await s.credit(who, 25n * USDT);
    const fees = s.feesAccount();
    const paid = await s.call(who, 'POST', '/account/card_cost', { ...pay, card_number: pan });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json()).toMatchObject({
      card_number: masked,
      next_charge_on: inAYear(),
      fulfillment_status: 'ordered',
    });
    expect(s.usdt(who)).toBe(0n);
    expect(s.feesAccount() - fees).toBe(FEE);
    const again = await s.call(who, 'POST', '/account/card_cost', pay);
    expect(again.json().errors).toEqual(['account.card.already_paid']);
    expect(await cardCount(who.id)).toBe(1);
  });

  it('five concurrent orders with two cards already give exactly one new card', async () => {
    const who = await s.approved('order-max@card.test', 1000n * USDT);
    expect((await s.order(who)).statusCode).toBe(201);
    expect((await s.order(who)).statusCode).toBe(201);
    const results = await Promise.all(Array.from({ length: 5 }, () => s.order(who)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 422, 422, 422, 422]);
    for (const r of results.filter((r) => r.statusCode === 422))
      expect(r.json().errors).toEqual(['account.card.max_cards_reached']);
    expect(await cardCount(who.id)).toBe(3);
    expect(await simCards(who.id)).toBe(3);
    expect(s.usdt(who)).toBe(1000n * USDT - 3n * FEE);
    expect((await s.call(who, 'GET', '/account/cards')).json()).toHaveLength(3);
    const fourth = await s.order(who);
    expect(fourth.json().errors).toEqual(['account.card.max_cards_reached']);
  });

  it('the slot reservation alone (what guards other processes) lets exactly one of five concurrent orders in', async () => {
    const who = await s.approved('order-slots@card.test', 0n);
    await s.db.query(
      `insert into cards (user_id, issuer_token, status, shipping) values ($1, 'card_a', 'normal', '{}'),
         ($1, 'card_b', 'unverified', '{}')`,
      [who.id],
    );
    const ids = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        reserveCardSlot(s.db, String(who.id), `card_slot_${i}`, SHIPPING, MAX_CARDS_PER_USER),
      ),
    );
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    await s.db.query('delete from cards where user_id = $1', [who.id]);
  });
});

describe('an order interrupted during the issuer call', () => {
  it('is settled with the issuer at the next order: its card becomes the user’s (unpaid), or the slot is freed', async () => {
    const who = await s.approved('order-stale@card.test');
    const holder = (
      await s.db.query('select issuer_user_token from card_holders where user_id = $1', [who.id])
    ).rows[0];
    const made = await s.t.deps.cardIssuer.createCard({
      token: 'card_made_before_crash',
      user_token: holder.issuer_user_token,
      fulfillment: {
        shipping: {
          recipient_address: {
            first_name: 'C',
            last_name: 'H',
            address1: SHIPPING.address,
            city: SHIPPING.city,
            postal_code: SHIPPING.post_code,
            country: 'AT',
          },
        },
      },
    });
    await s.db.query(
      `insert into cards (user_id, issuer_token, status, shipping, created_at)
       values ($1, 'card_made_before_crash', 'ordering', '{}', now() - interval '11 minutes'),
         ($1, 'card_never_made', 'ordering', '{}', now() - interval '11 minutes'),
         ($1, 'card_in_flight', 'ordering', '{}', now())`,
      [who.id],
    );
    // Two slots are taken (the card made, the order still in flight): the third is this order's.
    const res = await s.order(who);
    expect(res.statusCode).toBe(201);
    const rows = (
      await s.db.query(
        `select issuer_token, status, last4, next_charge_on is null as unpaid from cards where user_id = $1 order by id`,
        [who.id],
      )
    ).rows;
    expect(rows.slice(0, 2)).toEqual([
      { issuer_token: 'card_made_before_crash', status: 'unverified', last4: made.last_four, unpaid: true },
      { issuer_token: 'card_in_flight', status: 'ordering', last4: null, unpaid: true },
    ]);
    expect(rows[2]).toMatchObject({ status: 'unverified', unpaid: false });
    expect((await s.call(who, 'GET', '/account/cards')).json()).toHaveLength(2);
    expect((await s.order(who)).json().errors).toEqual(['account.card.max_cards_reached']);
  });
});

describe("another user's card", () => {
  it('is simply not found on every card route, and nothing of it changes', async () => {
    const owner = await s.approved('idor-owner@card.test');
    const masked = await s.activeCard(owner);
    const pan = await s.pan(owner, masked);
    const before = await s.row(owner, masked);
    const other = await s.approved('idor-other@card.test');
    const q = `card_number=${encodeURIComponent(masked)}`;
    for (const ref of [masked, pan]) {
      const query = `card_number=${encodeURIComponent(ref)}`;
      for (const [method, url, body] of [
        ['GET', `/account/card_details?${query}`, undefined],
        ['GET', `/account/cards/reveal?${query}`, undefined],
        ['GET', `/account/card_charges?${query}`, undefined],
        ['POST', '/account/password/retrieval', { card_number: ref, otp: '123456' }],
        ['POST', '/account/report/card_loss', { card_number: ref }],
        ['POST', '/account/remove/card_loss', { card_number: ref }],
        ['POST', '/account/replace_card', { card_number: ref }],
        ['POST', '/account/card_cost', { card_number: ref, shipping_address: SHIPPING, confirmed: true }],
      ] as const) {
        const res = await s.call(other, method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().errors).toEqual(['record.not_found']);
      }
    }
    const activate = await s.call(other, 'POST', '/account/card_activate', { card_number: pan });
    expect(activate.json().errors).toEqual(['account.card.invalid_card_number']);
    expect((await s.call(other, 'GET', '/account/cards')).json()).toEqual([]);
    expect(await s.row(owner, masked)).toEqual(before);
    expect(
      (
        await s.db.query(
          `select count(*)::int as n from activities where action like 'card_%' and user_id = $1`,
          [other.id],
        )
      ).rows[0].n,
    ).toBe(0);
    expect((await s.call(owner, 'GET', `/account/card_details?${q}`)).json().status).toBe('normal');
  });
});
