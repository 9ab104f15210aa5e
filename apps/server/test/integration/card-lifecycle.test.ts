import { describe, expect, it } from 'vitest';
import { cardSuite } from '../support/card.ts';

/** A card's life: activation, block and unblock, replacement until delivery (the PIN: card-pin.test.ts). */
const s = cardSuite();
const post = (who: Parameters<typeof s.call>[0], url: string, card_number: string) =>
  s.call(who, 'POST', url, { card_number });
const errors = (res: { json(): { errors?: string[] } }) => res.json().errors;

describe('activation', () => {
  it('needs the full, valid number of one of the user’s paid cards; once', async () => {
    const who = await s.approved('activate@card.test');
    const masked = (await s.order(who)).json().card_number as string;
    const pan = await s.pan(who, masked);
    const activate = (number: string) => post(who, '/account/card_activate', number);
    for (const bad of [
      '',
      '1234',
      masked,
      `${pan.slice(0, 15)}`,
      `${pan.slice(0, 15)}${(Number(pan[15]) + 1) % 10}`,
    ])
      expect(errors(await activate(bad)), bad).toEqual(['account.card.invalid_card_number']);
    // A Luhn-valid number that is not one of the user's cards.
    expect(errors(await activate('4111111111111111'))).toEqual(['account.card.invalid_card_number']);
    expect((await s.row(who, masked)).status).toBe('unverified');

    const done = await activate(pan.replace(/(\d{4})/g, '$1 ').trim());
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({ card_number: masked, status: 'normal' });
    expect((await s.simCard((await s.row(who, masked)).issuer_token)).state).toBe('ACTIVE');
    expect(errors(await activate(pan))).toEqual(['account.card.already_active']);
  });

  it('a card not yet active refuses block, unblock, replacement and PIN retrieval', async () => {
    const who = await s.approved('inactive@card.test');
    const masked = (await s.order(who)).json().card_number as string;
    for (const url of ['/account/report/card_loss', '/account/remove/card_loss', '/account/replace_card'])
      expect(errors(await post(who, url, masked)), url).toEqual(['account.card.not_active']);
    const pin = await s.call(who, 'POST', '/account/password/retrieval', {
      card_number: masked,
      otp: '123456',
    });
    expect(errors(pin)).toEqual(['account.card.not_active']);
    for (const url of ['/account/report/card_loss', '/account/replace_card'])
      expect(errors(await s.call(who, 'POST', url, {}))).toEqual(['account.card.missing_card_number']);
    expect(errors(await s.call(who, 'POST', '/account/password/retrieval', { otp: '123456' }))).toEqual([
      'account.card.missing_card_number',
    ]);
    expect((await s.row(who, masked)).status).toBe('unverified');
  });
});

describe('block and unblock', () => {
  it('blocks (SUSPENDED at the issuer) and unblocks (ACTIVE again), each once', async () => {
    const who = await s.approved('block@card.test');
    const masked = await s.activeCard(who);
    const token = (await s.row(who, masked)).issuer_token;
    const blocked = await post(who, '/account/report/card_loss', masked);
    expect(blocked.statusCode).toBe(201);
    expect(blocked.json().status).toBe('loss');
    expect((await s.simCard(token)).state).toBe('SUSPENDED');
    const reason = await s.db.query(
      `select reason_code from cardsim_transitions where card_token = $1 and state = 'SUSPENDED'`,
      [token],
    );
    expect(reason.rows).toEqual([{ reason_code: '10' }]);
    expect(errors(await post(who, '/account/report/card_loss', masked))).toEqual([
      'account.card.already_blocked',
    ]);
    const pin = await s.call(who, 'POST', '/account/password/retrieval', {
      card_number: masked,
      otp: '123456',
    });
    expect(errors(pin)).toEqual(['account.card.blocked']);

    const unblocked = await post(who, '/account/remove/card_loss', masked);
    expect(unblocked.json().status).toBe('normal');
    expect((await s.simCard(token)).state).toBe('ACTIVE');
    expect(errors(await post(who, '/account/remove/card_loss', masked))).toEqual([
      'account.card.already_unblocked',
    ]);
    expect((await s.call(who, 'GET', '/account/cards')).json()[0].status).toBe('normal');
  });
});

describe('replacement', () => {
  it('shows processing until the new card is delivered; then the old one is terminated and the new one appears paid', async () => {
    const who = await s.approved('replace@card.test');
    const masked = await s.activeCard(who);
    const oldPan = await s.pan(who, masked);
    const old = await s.row(who, masked);
    await post(who, '/account/report/card_loss', masked);
    const replaced = await post(who, '/account/replace_card', masked);
    expect(replaced.statusCode).toBe(201);
    expect(replaced.json().status).toBe('Card replacement processing');
    expect(errors(await post(who, '/account/replace_card', masked))).toEqual([
      'account.card.replacement_in_progress',
    ]);
    for (const url of ['/account/report/card_loss', '/account/remove/card_loss'])
      expect(errors(await post(who, url, masked))).toEqual(['account.card.replacement_in_progress']);
    const listed = (await s.call(who, 'GET', '/account/cards')).json();
    expect(listed.map((c: { card_number: string; status: string }) => [c.card_number, c.status])).toEqual([
      [masked, 'Card replacement processing'],
    ]);
    const reissued = (
      await s.db.query('select token, new_pan_from, state from cardsim_cards where new_pan_from = $1', [
        old.issuer_token,
      ])
    ).rows;
    expect(reissued).toHaveLength(1);
    expect(reissued[0].state).toBe('UNACTIVATED');

    await s.fulfilAll();
    const after = (await s.call(who, 'GET', '/account/cards')).json();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      status: 'unverified',
      next_charge_on: old.next,
      fulfillment_status: 'delivered',
    });
    expect(after[0].card_number).not.toBe(masked);
    expect((await s.simCard(old.issuer_token)).state).toBe('TERMINATED');
    expect((await s.db.query('select status from cards where id = $1', [old.id])).rows[0].status).toBe(
      'terminated',
    );
    const oldRef = await s.call(who, 'GET', `/account/card_details?card_number=${oldPan}`);
    expect(oldRef.statusCode).toBe(404);
    // The new card is activated with its own number; the fee year carries over, so nothing is charged.
    const balance = s.usdt(who);
    const newPan = await s.pan(who, after[0].card_number);
    expect(newPan).not.toBe(oldPan);
    const active = await post(who, '/account/card_activate', newPan);
    expect(active.json()).toMatchObject({ status: 'normal', next_charge_on: old.next });
    expect(s.usdt(who)).toBe(balance);
    // The replaced card no longer counts towards the three.
    expect(
      (
        await s.db.query(
          `select count(*)::int as n from cards where user_id = $1 and status <> 'terminated'`,
          [who.id],
        )
      ).rows[0].n,
    ).toBe(1);
  });
});
