import { afterAll, beforeAll, expect } from 'vitest';
import { webhookHeaders } from '../../src/adapters/card-issuer/signing.ts';
import { multipart } from '../../src/adapters/kyc/sumsub.ts';
import type { CardReviewDesk } from '../../src/adapters/simulators.ts';
import type { AppDeps } from '../../src/app-deps.ts';
import { auditLedger } from '../../src/core/audit.ts';
import { cardReview } from '../../src/modules/card/review-commands.ts';
import { createTestApp, type TestApp } from './app.ts';
import { JPEG, PNG } from './kyc.ts';
import { type Member, member, peatio } from './wallet.ts';

let memberPhones = 0;
/** A distinct Austrian mobile number per member: a verified number names one account (issue 32). */
const nextMemberPhone = () =>
  `43660${String(++memberPhones).padStart(4, '0')}${String(Date.now() % 10_000).padStart(4, '0')}`;

export { JPEG, PNG };

/** The card issuer simulator's reviewer's desk in a test app (the CLI's `card review` decides through it). */
export function cardDesk(t: TestApp): CardReviewDesk {
  const sim = t.deps.cardSimulator;
  if (!sim) throw new Error('the simulator is not the issuer');
  return sim.desk;
}

/** One USDT in units (precision 6). */
export const USDT = 1_000_000n;
/** Where test cards go. */
export const SHIPPING = { address: 'Mariahilfer Str. 1', city: 'Wien', post_code: '1060', country: 'AT' };
/** A passport-only application from Japan, and an ID-card one from Austria. */
export const PASSPORT_APPLICATION = { id_type: 'passport', country: 'JP' } as const;

let idSeq = 0;
/** A document number no other test holder has. */
export const uniqueIdNo = (prefix = 'P') =>
  `${prefix}${process.pid % 1000}${Date.now() % 100_000}${++idSeq}`.slice(0, 12).toUpperCase();

/**
 * A card test file's app, listening (the issuer adapter reaches the built-in simulator over HTTP, and the
 * simulator's webhooks come back over HTTP), with helpers; after the file's tests the ledger is audited.
 */
export class CardSuite {
  t!: TestApp;
  base!: string;
  env: Record<string, string> = {};
  overrides: Partial<AppDeps> = {};

  /** Stops the app and starts a new one on the same database (a process restart), listening. */
  restart = async () => {
    await this.t.app.close();
    this.t = await createTestApp(this.overrides, this.env, this.t.db);
    this.base = await this.t.app.listen({ port: 0, host: '127.0.0.1' });
  };

  /** `POST /account/card_topup`. */
  topup = (who: Member, card: string, usdtAmount: string) =>
    this.call(who, 'POST', '/account/card_topup', { card_number: card, usdt_amount: usdtAmount });

  /** Makes every pending funding order due, settles it at the simulator and delivers the webhooks. */
  settleTopups = async () => {
    await this.db.query(`update cardsim_gpaorders set settle_at = now() where state = 'PENDING'`);
    await this.settle();
  };

  /** The user's top-up rows by state. */
  topupStates = async (who: Member) =>
    (
      await this.db.query(
        'select state, count(*)::int as n from card_topups where user_id = $1 group by state order by state',
        [who.id],
      )
    ).rows.reduce((m: Record<string, number>, r) => {
      m[r.state] = r.n;
      return m;
    }, {});

  /** What the core's `card` float holds (USDT units). */
  cardFloat = () => this.t.deps.core.sequencer.state.systemBalance('card', 'usdt');

  get db() {
    return this.t.db.pool;
  }

  /** The schema owner's pool, for what the app's role may not do (ageing the append-only security log). */
  get ownerDb() {
    return this.t.db.ownerPool;
  }

  /** A level-3 member with a profile (the holder's names) and a verified phone (for PINs). */
  member = async (email: string, level = 3, phone: string | null = nextMemberPhone()): Promise<Member> => {
    const who = await member(this.t, email, level);
    await this.db.query(
      `insert into profiles (user_id, first_name, last_name, country) values ($1, 'Carla', 'Holder', 'AT')`,
      [who.id],
    );
    if (phone)
      await this.db.query(
        `insert into phones (user_id, country, number, validated_at) values ($1, 'AT', $2, now())`,
        [who.id, phone],
      );
    return who;
  };

  call = (who: Member, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    peatio(this.t, who, method, url, payload);

  /** Credits USDT through the core, as a deposit. */
  credit = (who: Member, units: bigint) =>
    this.t.deps.core.sequencer.submit({
      type: 'Credit',
      user: who.id,
      currency: 'usdt',
      amount: units,
      kind: 'deposit',
    });

  usdt = (who: Member) => this.t.deps.core.sequencer.state.balance(who.id, 'usdt').balance;
  feesAccount = () => this.t.deps.core.sequencer.state.systemBalance('fees', 'usdt');

  /** `POST /account/upload_document` with the image as the file `document_data`. */
  upload = (who: Member, docType: string, content: Buffer | null, contentType = 'image/jpeg') => {
    const form = multipart([
      { name: 'doc_type', value: docType },
      ...(content ? [{ name: 'document_data', fileName: 'image', contentType, value: content }] : []),
    ]);
    return this.t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/account/upload_document',
      headers: { ...who.headers, 'content-type': form.contentType },
      payload: form.body,
    });
  };

  /** Applies, uploads the passport page and a selfie, and submits for review. */
  submitted = async (who: Member, idNo = uniqueIdNo()) => {
    const applied = await this.call(who, 'POST', '/account/cardholder', {
      ...PASSPORT_APPLICATION,
      id_no: idNo,
    });
    expect(applied.statusCode, applied.body).toBe(201);
    expect((await this.upload(who, 'passport', JPEG)).statusCode).toBe(201);
    expect((await this.upload(who, 'selfie', PNG, 'image/png')).statusCode).toBe(201);
    const submitted = await this.call(who, 'POST', '/account/cardholder_document');
    expect(submitted.statusCode, submitted.body).toBe(201);
    return submitted.json();
  };

  /** Lets the simulator do what is due and deliver every queued webhook. */
  settle = async () => {
    const delivery = this.t.deps.cardSimulator?.delivery;
    for (let i = 0; i < 100; i++) {
      delivery?.kick();
      await delivery?.idle();
      const pending = await this.db.query('select 1 from cardsim_webhooks where delivered_at is null');
      if (pending.rowCount === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('simulator webhooks not delivered');
  };

  /** The simulator's reviewer decides (the operator CLI's function), and the webhook is delivered. */
  review = async (who: Member, decision: 'approve' | 'reject' | 'incomplete', reason?: string) => {
    const result = await cardReview(this.db, cardDesk(this.t), decision, who.email, reason);
    expect(result.ok, result.message).toBe(true);
    await this.settle();
  };

  /** A level-3 member with an approved holder and `usdt` of balance. */
  approved = async (email: string, usdt = 1000n * USDT) => {
    const who = await this.member(email);
    await this.submitted(who);
    await this.review(who, 'approve');
    if (usdt > 0n) await this.credit(who, usdt);
    return who;
  };

  /** Orders a new card (`POST /account/card_cost` without a number). */
  order = (who: Member, shipping = SHIPPING) =>
    this.call(who, 'POST', '/account/card_cost', { shipping_address: shipping, confirmed: true });

  /** The full number of a card, by the owner's reveal call. */
  pan = async (who: Member, masked: string) => {
    const res = await this.call(
      who,
      'GET',
      `/account/cards/reveal?card_number=${encodeURIComponent(masked)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().card_number as string;
  };

  /** An ordered, paid and activated card; its masked number. */
  activeCard = async (who: Member) => {
    const ordered = await this.order(who);
    expect(ordered.statusCode, ordered.body).toBe(201);
    const masked = ordered.json().card_number as string;
    const res = await this.call(who, 'POST', '/account/card_activate', {
      card_number: await this.pan(who, masked),
    });
    expect(res.statusCode, res.body).toBe(201);
    return masked;
  };

  /** Ships and delivers every ordered card now (the simulator's fulfilment), and delivers the webhooks. */
  fulfilAll = async () => {
    await this.db.query(
      `update cardsim_cards set ship_at = now() - interval '2 seconds', deliver_at = now() - interval '1 second'
       where fulfillment_status in ('ORDERED', 'SHIPPED')`,
    );
    for (let i = 0; i < 3; i++) await this.settle();
  };

  /** The state of a card at the simulator. */
  simCard = async (issuerToken: string) =>
    (
      await this.db.query('select state, fulfillment_status from cardsim_cards where token = $1', [
        issuerToken,
      ])
    ).rows[0];

  /** Our row of a user's card by its masked number. */
  row = async (who: Member, masked: string) =>
    (
      await this.db.query(
        `select id, issuer_token, status, fee_suspended, paid_periods, to_char(next_charge_on, 'YYYY-MM-DD') as next
         from cards where user_id = $1 and first4 = $2 and last4 = $3 order by id desc limit 1`,
        [who.id, masked.slice(0, 4), masked.slice(-4)],
      )
    ).rows[0];

  /** Sends a webhook signed like the simulator's (or with other credentials, or a given raw body). */
  webhook = (
    body: unknown,
    override: { username?: string; password?: string; secret?: string } = {},
    raw?: string,
  ) => {
    const c = this.t.deps.cardSimulator?.credentials;
    if (!c) throw new Error('the simulator is not the issuer');
    const text = raw ?? JSON.stringify(body);
    const signedOver = raw === undefined ? text : JSON.stringify(body);
    return this.t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/public/card/webhook',
      headers: webhookHeaders(
        {
          username: override.username ?? c.webhookUsername,
          password: override.password ?? c.webhookPassword,
          secret: override.secret ?? c.webhookSecret,
        },
        signedOver,
      ),
      payload: text,
    });
  };
}

/**
 * The settled top-ups that are not on their card at the built-in simulator: each one's funding order must have
 * completed once, for its amount (ours in USDT, the simulator's in units of 10⁻⁶), on its card. The
 * simulator's tables belong to the simulator, so this cross-check lives in the tests, not in the ledger audit.
 */
export async function topupsOffTheirCards(db: TestApp['db']['pool']): Promise<string[]> {
  const rows = await db.query(
    `select t.id from card_topups t join cards k on k.id = t.card_id
     where t.state = 'settled' and (select count(*) from cardsim_gpaorders g
       where g.token = t.issuer_token and g.state = 'COMPLETION' and g.card_token = k.issuer_token
         and g.amount = t.amount * 1000000) <> 1
       and exists (select 1 from cardsim_cards where token = k.issuer_token) order by t.id limit 20`,
  );
  return rows.rows.map((r) => `top-up ${r.id} is settled but not on its card`);
}

/** Starts a card test app for this file; audits the ledger (and the top-ups against the simulator) and closes it after. */
export function cardSuite(env: Record<string, string> = {}, overrides: Partial<AppDeps> = {}): CardSuite {
  const suite = new CardSuite();
  // Fulfilment and top-up settlement move only when a test says so.
  suite.env = { CARD_SIM_SHIP_SECONDS: '3600', CARD_TOPUP_SETTLE_SECONDS: '3600', ...env };
  suite.overrides = overrides;
  beforeAll(async () => {
    suite.t = await createTestApp(overrides, suite.env);
    suite.base = await suite.t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    expect(await auditLedger(suite.t.db.pool)).toEqual([]);
    expect(await topupsOffTheirCards(suite.t.db.pool)).toEqual([]);
    await suite.t.close();
  });
  return suite;
}
