import { createHmac, randomBytes } from 'node:crypto';
import { unseal } from '@exchange/provider-sims/card-issuer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encrypt } from '../../src/modules/identity/crypto.ts';
import { cardSuite } from '../support/card.ts';
import { freshTotp, type Member } from '../support/wallet.ts';

/**
 * Password Retrieval (issue 25, item 3): the PIN goes to the cardholder's screen only, behind a session and a
 * fresh authenticator code, and is never in an SMS, a mail, the outbox, a log line or a row of ours.
 */
const logLines: string[] = [];
const s = cardSuite(
  { LOG_LEVEL: 'trace' },
  { logStream: { write: (line: string) => void logLines.push(line) } },
);
const warnings: string[] = [];
afterEach(() => vi.restoreAllMocks());

const URL = '/account/password/retrieval';
/** PIN_REVEAL_POLICY (modules/card/pin.ts): wrong codes allowed per account in the window. */
const POLICY = { maxFailures: 5, windowMinutes: 15 };
const reveal = (who: Member, body: Record<string, unknown>, headers: Record<string, string> = who.headers) =>
  s.t.app.inject({ method: 'POST', url: `/api/v2/peatio${URL}`, headers, payload: body });
const errors = (res: { json(): { errors?: string[] } }) => res.json().errors;
const outboxRows = async () => (await s.db.query('select count(*)::int as n from mail_outbox')).rows[0].n;

/** The PIN the simulated issuer holds for a card (what a reveal must answer). */
async function issuerPin(who: Member, masked: string): Promise<string> {
  const token = (await s.row(who, masked)).issuer_token;
  const row = (await s.db.query('select pin_enc from cardsim_cards where token = $1', [token])).rows[0];
  const key = s.t.deps.cardSimulator?.credentials.dataKey ?? '';
  return unseal(key, row.pin_enc);
}

describe('PIN on screen', () => {
  it('answers the PIN to the session with a fresh authenticator code; no message, log line or row has it', async () => {
    const who = await s.approved('pin-screen@card.test');
    const masked = await s.activeCard(who);
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      warnings.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    });
    const mailsBefore = await outboxRows();
    const linesBefore = logLines.length;

    const res = await reveal(who, { card_number: masked, otp: await freshTotp(s.t, who) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const pin = await issuerPin(who, masked);
    expect(res.json()).toEqual({ pin, expires_in: 30 });

    // Nothing was sent: no SMS, no mail.
    expect(await outboxRows()).toBe(mailsBefore);
    // The request was logged (the log works), but the PIN standing alone is in no line: not inside a longer
    // number, a decimal or a hex id (request ids are UUIDs, where a PIN such as 9565 can sit as in `e9565f`).
    const logged = logLines.slice(linesBefore).join('\n');
    expect(logged).toContain('password/retrieval');
    const alone = new RegExp(`(^|[^0-9a-f.])${pin}([^0-9a-f]|$)`, 'i');
    expect([...logLines, ...warnings].join('\n')).not.toMatch(alone);
    // No text column of the outbox or the activities holds it (the activity names the card by its last four).
    const rows = await s.db.query(
      `select m::text as row from mail_outbox m union all
       select a::text from activities a where a.user_id = $1`,
      [who.id],
    );
    expect(rows.rows.filter((r) => alone.test(r.row.replace(`**** ${masked.slice(-4)}`, '')))).toEqual([]);
    const activity = await s.db.query(
      `select result, data from activities where user_id = $1 and action = 'card_pin_reveal'`,
      [who.id],
    );
    expect(activity.rows).toEqual([{ result: 'succeed', data: { card: `**** ${masked.slice(-4)}` } }]);
  });

  it('is no longer sent by SMS: the old GET answers 405 (the path takes POST only) and sends nothing', async () => {
    const who = await s.approved('pin-nosms@card.test');
    const masked = await s.activeCard(who);
    const before = await outboxRows();
    const res = await s.call(who, 'GET', `${URL}?card_number=${encodeURIComponent(masked)}`);
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'POST']);
    expect(await outboxRows()).toBe(before);
  });
});

describe('PIN refusals', () => {
  it('refuses without a session, and with an API key (even with a valid code)', async () => {
    const who = await s.approved('pin-apikey@card.test');
    const masked = await s.activeCard(who);
    const noSession = await s.t.app.inject({
      method: 'POST',
      url: `/api/v2/peatio${URL}`,
      payload: { card_number: masked, otp: await freshTotp(s.t, who) },
    });
    expect(noSession.statusCode).toBe(401);
    expect(errors(noSession)).toEqual(['authz.invalid_session']);

    const kid = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('hex');
    await s.db.query('insert into api_keys (user_id, kid, secret_enc) values ($1, $2, $3)', [
      who.id,
      kid,
      encrypt(s.t.deps.keys, secret),
    ]);
    let nonce = Date.now();
    const signed = () => {
      const n = String(++nonce);
      return {
        'x-auth-apikey': kid,
        'x-auth-nonce': n,
        'x-auth-signature': createHmac('sha256', secret)
          .update(n + kid)
          .digest('hex'),
      };
    };
    // The key works (it lists the cards), but it never gets a PIN.
    const cards = await s.t.app.inject({
      method: 'GET',
      url: '/api/v2/peatio/account/cards',
      headers: signed(),
    });
    expect(cards.statusCode, cards.body).toBe(200);
    const byKey = await reveal(who, { card_number: masked, otp: await freshTotp(s.t, who) }, signed());
    expect(byKey.statusCode).toBe(403);
    expect(errors(byKey)).toEqual(['authz.session_required']);
    expect(byKey.body).not.toContain(await issuerPin(who, masked));
  });

  it('refuses a missing, malformed, wrong or replayed code, and 2FA that is off', async () => {
    const who = await s.approved('pin-otp@card.test');
    const masked = await s.activeCard(who);
    expect(errors(await reveal(who, { card_number: masked }))).toEqual(['resource.otp.missing_code']);
    expect(errors(await reveal(who, { card_number: masked, otp: '12ab56' }))).toEqual([
      'resource.otp.invalid_code',
    ]);
    const good = await freshTotp(s.t, who);
    const wrong = good === '000000' ? '000001' : '000000';
    expect(errors(await reveal(who, { card_number: masked, otp: wrong }))).toEqual([
      'resource.otp.invalid_code',
    ]);
    const first = await reveal(who, { card_number: masked, otp: good });
    expect(first.statusCode).toBe(200);
    const replay = await reveal(who, { card_number: masked, otp: good });
    expect(replay.statusCode).toBe(422);
    expect(errors(replay)).toEqual(['resource.otp.code_used']);
    expect(replay.body).not.toContain(first.json().pin);

    await s.db.query('update users set otp = false, otp_secret_enc = null where id = $1', [who.id]);
    const off = await reveal(who, { card_number: masked, otp: '123456' });
    expect(off.statusCode).toBe(403);
    expect(errors(off)).toEqual(['resource.otp.not_enabled']);
    const outcomes = await s.db.query(
      `select result from activities where user_id = $1 and action = 'card_pin_reveal' order by id`,
      [who.id],
    );
    expect(outcomes.rows.map((r) => r.result)).toEqual(['failed', 'succeed', 'failed']);
  });

  it("refuses another user's card, by its masked number or in full", async () => {
    const owner = await s.approved('pin-owner@card.test');
    const masked = await s.activeCard(owner);
    const pan = await s.pan(owner, masked);
    const other = await s.approved('pin-other@card.test');
    for (const reference of [masked, pan]) {
      const res = await reveal(other, { card_number: reference, otp: await freshTotp(s.t, other) });
      expect(res.statusCode, reference).toBe(404);
      expect(errors(res)).toEqual(['record.not_found']);
      expect(res.body).not.toContain(await issuerPin(owner, masked));
    }
  });

  it(`stops after ${POLICY.maxFailures} wrong codes, even with the right one`, async () => {
    const who = await s.approved('pin-guess@card.test');
    const masked = await s.activeCard(who);
    const good = await freshTotp(s.t, who);
    const wrong = good === '000000' ? '000001' : '000000';
    for (let i = 0; i < POLICY.maxFailures; i++)
      expect(errors(await reveal(who, { card_number: masked, otp: wrong }))).toEqual([
        'resource.otp.invalid_code',
      ]);
    const blocked = await reveal(who, { card_number: masked, otp: good });
    expect(blocked.statusCode).toBe(429);
    expect(errors(blocked)).toEqual(['account.card.pin_too_many_attempts']);
    // The failures age out of the window on the app's clock (the last one was stamped a moment ago): a minute
    // before the window's end it still refuses, a minute after the right code works.
    s.t.clock.advance((POLICY.windowMinutes - 1) * 60_000);
    const still = await reveal(who, { card_number: masked, otp: await freshTotp(s.t, who) });
    expect([still.statusCode, errors(still)]).toEqual([429, ['account.card.pin_too_many_attempts']]);
    s.t.clock.advance(2 * 60_000);
    const again = await reveal(who, { card_number: masked, otp: await freshTotp(s.t, who) });
    expect(again.statusCode, again.body).toBe(200);
    // A failure now is stamped on the app's clock, so it counts in the window that clock reads.
    const next = await freshTotp(s.t, who);
    const miss = next === '000000' ? '000001' : '000000';
    for (let i = 0; i < POLICY.maxFailures; i++) await reveal(who, { card_number: masked, otp: miss });
    const blockedAgain = await reveal(who, { card_number: masked, otp: next });
    expect(errors(blockedAgain)).toEqual(['account.card.pin_too_many_attempts']);
  });
});
