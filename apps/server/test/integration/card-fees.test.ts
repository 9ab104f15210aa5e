import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMarqetaIssuer } from '../../src/adapters/card-issuer/marqeta.ts';
import { type CardIssuer, CardIssuerError } from '../../src/adapters/card-issuer/port.ts';
import { cardSuite, PASSPORT_APPLICATION, SHIPPING, USDT, uniqueIdNo } from '../support/card.ts';
import { freshTotp } from '../support/wallet.ts';

/** The annual fee run (paid, or suspended until paid) and the issuer's failures (504 and 502, nothing changed). */
const s = cardSuite();
afterEach(() => vi.restoreAllMocks());
const ANNUAL = 20n * USDT;
const yearAfter = (date: string) => `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`;
const today = () => new Date().toISOString().slice(0, 10);
const setDue = async (cardId: string, date: string) =>
  s.db.query('update cards set next_charge_on = $2 where id = $1', [cardId, date]);
const chargeRows = async (cardId: string) =>
  (await s.db.query('select fee_type, period from card_charges where card_id = $1 order by id', [cardId]))
    .rows;

describe('annual fee', () => {
  it('charges a due card once through the core and moves the date a year on', async () => {
    const who = await s.approved('annual@card.test', 30n * USDT + 50n * USDT);
    const masked = await s.activeCard(who);
    const card = await s.row(who, masked);
    await setDue(card.id, '2025-03-01');
    // A charge that reached the core before a crash, with the id the run uses: it must not be taken twice.
    const ref = `card-fee:${card.id}:1:0`;
    await s.t.deps.core.sequencer.submit({ type: 'CardFee', user: who.id, amount: ANNUAL }, ref);
    const balance = s.usdt(who);
    const fees = s.feesAccount();
    expect(await s.t.deps.cards.tick(today())).toEqual({ charged: 1, suspended: 0 });
    expect(s.usdt(who)).toBe(balance);
    expect(s.feesAccount()).toBe(fees);
    expect((await s.row(who, masked)).next).toBe('2026-03-01');
    expect(await chargeRows(card.id)).toEqual([
      { fee_type: 'activation', period: 0 },
      { fee_type: 'annual', period: 0 },
      { fee_type: 'annual', period: 1 },
    ]);

    await setDue(card.id, today());
    expect(await s.t.deps.cards.tick(today())).toEqual({ charged: 1, suspended: 0 });
    expect(s.usdt(who)).toBe(balance - ANNUAL);
    expect(s.feesAccount() - fees).toBe(ANNUAL);
    expect((await s.row(who, masked)).next).toBe(yearAfter(today()));
    expect(await s.t.deps.cards.tick(today())).toEqual({ charged: 0, suspended: 0 });
    expect(s.usdt(who)).toBe(balance - ANNUAL);
    const listed = await s.call(
      who,
      'GET',
      `/account/card_charges?card_number=${encodeURIComponent(masked)}`,
    );
    expect(listed.headers.total).toBe('4');
  });

  it('an unpaid fee suspends the card at the issuer and shows a Pay button; paying charges and reactivates it', async () => {
    const who = await s.approved('annual-unpaid@card.test', 30n * USDT + 5n * USDT);
    const masked = await s.activeCard(who);
    const card = await s.row(who, masked);
    await setDue(card.id, today());
    const fees = s.feesAccount();
    expect(await s.t.deps.cards.tick(today())).toEqual({ charged: 0, suspended: 1 });
    expect(s.usdt(who)).toBe(5n * USDT);
    expect(s.feesAccount()).toBe(fees);
    expect((await s.simCard(card.issuer_token)).state).toBe('SUSPENDED');
    const reason = await s.db.query(
      `select reason_code from cardsim_transitions where card_token = $1 order by created_time desc limit 1`,
      [card.issuer_token],
    );
    expect(reason.rows[0].reason_code).toBe('15');
    const listed = (await s.call(who, 'GET', '/account/cards')).json()[0];
    expect(listed).toMatchObject({ status: 'normal', next_charge_on: null });
    const pin = await s.call(who, 'POST', '/account/password/retrieval', {
      card_number: masked,
      otp: await freshTotp(s.t, who),
    });
    expect(pin.json().errors).toEqual(['account.card.not_active']);
    expect(await s.t.deps.cards.tick(today())).toEqual({ charged: 0, suspended: 0 });

    // Block and unblock meanwhile: the card stays suspended at the issuer while the fee is unpaid.
    expect(
      (await s.call(who, 'POST', '/account/report/card_loss', { card_number: masked })).json().status,
    ).toBe('loss');
    expect(
      (await s.call(who, 'POST', '/account/remove/card_loss', { card_number: masked })).json().status,
    ).toBe('normal');
    expect((await s.simCard(card.issuer_token)).state).toBe('SUSPENDED');

    const pay = { card_number: masked, shipping_address: SHIPPING, confirmed: true };
    expect((await s.call(who, 'POST', '/account/card_cost', pay)).json().errors).toEqual([
      'account.card.insufficient_fee_balance',
    ]);
    await s.credit(who, 15n * USDT);
    const paid = await s.call(who, 'POST', '/account/card_cost', pay);
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json()).toMatchObject({ status: 'normal', next_charge_on: yearAfter(today()) });
    expect(s.usdt(who)).toBe(0n);
    expect(s.feesAccount() - fees).toBe(ANNUAL);
    expect((await s.simCard(card.issuer_token)).state).toBe('ACTIVE');
    expect((await s.row(who, masked)).fee_suspended).toBe(false);
    expect((await chargeRows(card.id)).map((r) => r.fee_type)).toEqual(['activation', 'annual', 'annual']);
    const pinNow = await s.call(who, 'POST', '/account/password/retrieval', {
      card_number: masked,
      otp: await freshTotp(s.t, who),
    });
    expect(pinNow.statusCode).toBe(200);
  });
});

describe('issuer failures', () => {
  let stub: Server;
  let stubUrl: string;
  beforeAll(async () => {
    stub = createServer((req, res) => {
      if (req.url?.startsWith('/hang')) return; // never answers
      if (req.url?.startsWith('/gateway')) return void res.writeHead(504).end('Gateway Timeout');
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error_message: 'Internal error', error_code: '500' }));
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((resolve) => stub.close(resolve));
  });
  const adapter = (path: string) =>
    createMarqetaIssuer({
      baseUrl: `${stubUrl}${path}`,
      username: 'u',
      password: 'p',
      cardProductToken: 'cp',
      timeoutMs: 200,
    });
  /** Makes the app's issuer answer `method` through the HTTP adapter at the stub's `path`. */
  const through = <K extends Exclude<keyof CardIssuer, 'kind'>>(method: K, path: string) => {
    const failing = adapter(path);
    vi.spyOn(s.t.deps.cardIssuer, method).mockImplementation(failing[method] as never);
  };

  it('the HTTP adapter: a timeout or a 504 is 504; an error answer keeps its status; no answer at all is 502', async () => {
    const status = async (issuer: CardIssuer) =>
      issuer.revealPin('card_x').then(
        () => 0,
        (err) => (err instanceof CardIssuerError ? err.status : -1),
      );
    expect(await status(adapter('/hang'))).toBe(504);
    expect(await status(adapter('/gateway'))).toBe(504);
    expect(await status(adapter('/broken'))).toBe(500);
    const closed = createMarqetaIssuer({
      baseUrl: 'http://127.0.0.1:9',
      username: 'u',
      password: 'p',
      cardProductToken: 'c',
    });
    expect(await status(closed)).toBe(502);
    expect(
      await adapter('/broken')
        .getCard('card_x')
        .catch((e) => e.status),
    ).toBe(500);
  });

  it('answers 504 issuer_timeout or 502 issuer_unavailable, and nothing changes', async () => {
    const who = await s.member('issuer-down@card.test');
    through('createUser', '/hang');
    const apply = () =>
      s.call(who, 'POST', '/account/cardholder', { ...PASSPORT_APPLICATION, id_no: uniqueIdNo() });
    const timedOut = await apply();
    expect(timedOut.statusCode).toBe(504);
    expect(timedOut.json().errors).toEqual(['account.card.issuer_timeout']);
    through('createUser', '/broken');
    const broken = await apply();
    expect(broken.statusCode).toBe(502);
    expect(broken.json().errors).toEqual(['account.card.issuer_unavailable']);
    expect(
      (await s.db.query('select count(*)::int as n from card_holders where user_id = $1', [who.id])).rows[0]
        .n,
    ).toBe(0);
    vi.restoreAllMocks();

    const buyer = await s.approved('issuer-order@card.test', 100n * USDT);
    through('createCard', '/gateway');
    const order = await s.order(buyer);
    expect(order.statusCode).toBe(504);
    expect(order.json().errors).toEqual(['account.card.issuer_timeout']);
    expect(
      (await s.db.query('select count(*)::int as n from cards where user_id = $1', [buyer.id])).rows[0].n,
    ).toBe(0);
    expect(s.usdt(buyer)).toBe(100n * USDT);
    vi.restoreAllMocks();

    const masked = await s.activeCard(buyer);
    through('transitionCard', '/broken');
    const block = await s.call(buyer, 'POST', '/account/report/card_loss', { card_number: masked });
    expect(block.statusCode).toBe(502);
    expect((await s.row(buyer, masked)).status).toBe('normal');
    through('createCard', '/hang');
    const replace = await s.call(buyer, 'POST', '/account/replace_card', { card_number: masked });
    expect(replace.json().errors).toEqual(['account.card.issuer_timeout']);
    expect((await s.row(buyer, masked)).status).toBe('normal');
    through('revealPin', '/hang');
    const pin = await s.call(buyer, 'POST', '/account/password/retrieval', {
      card_number: masked,
      otp: await freshTotp(s.t, buyer),
    });
    expect(pin.statusCode).toBe(504);
  });
});
