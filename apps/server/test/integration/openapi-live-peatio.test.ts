import { Wallet } from 'ethers';
import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import type { RecordedResponse } from '../../src/http/response-recorder.ts';
import { makeSnapshot } from '../../src/modules/custody/snapshots.ts';
import { hashPassword } from '../../src/modules/identity/passwords.ts';
import type { TestApp } from '../support/app.ts';
import { deliverBankCredit } from '../support/bank.ts';
import { outbox } from '../support/identity.ts';
import { checkAnswers, documents, recordingApp, uncovered } from '../support/openapi-live.ts';
import { externalAddress, freshTotp, type Member, member, peatio } from '../support/wallet.ts';

// Issue 30: every Peatio operation (the card's in openapi-live-card) and the developer tools answered for real,
// and every answer checked against the documents with ajv.
let t: TestApp;
let answers: RecordedResponse[];
let ann: Member;
let bob: Member;
const PASSWORD = 'Transfer-pass1';

const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v2/peatio${url}` });
const as = (who: Member, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  peatio(t, who, method, url, payload);
const put = (who: Member, url: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v2/peatio${url}`,
    headers: who.headers,
    payload: payload as object,
  });
const ok = (res: { statusCode: number; body: string }, status = 200) =>
  expect(res.statusCode, res.body).toBe(status);
const credit = (who: Member, currency: string, amount: bigint) =>
  t.deps.core.sequencer.submit({ type: 'Credit', user: who.id, currency, amount, kind: 'deposit' });
const dev = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/v2/dev${url}`, payload: payload as object });

beforeAll(async () => {
  ({ t, answers } = await recordingApp());
  ann = await member(t, 'ann@peatiodocs.test');
  bob = await member(t, 'bob@peatiodocs.test');
  await t.db.pool.query('update users set password_digest = $2 where id = $1', [
    ann.id,
    await hashPassword(PASSWORD),
  ]);
});
afterAll(async () => {
  expect(await auditLedger(t.db.pool)).toEqual([]);
  await t.close();
});

describe('the Peatio document, answered live', () => {
  it('public market data', async () => {
    for (const url of [
      '/public/timestamp',
      '/public/version',
      '/public/member-levels',
      '/public/health/alive',
      '/public/health/ready',
      '/public/markets?limit=2',
      '/public/markets/tickers',
      '/public/markets/ethbtc/tickers',
      '/public/markets/ethbtc/depth',
      '/public/markets/ethbtc/order-book',
      '/public/markets/ethbtc/trades',
      '/public/markets/ethbtc/k-line?period=1',
      '/public/currencies?type=coin',
      '/public/currencies/btc',
      '/public/withdraw_limits',
      '/public/trading_fees',
      '/public/trading_level',
      '/swagger',
    ])
      ok(await get(url));
    ok(await t.app.inject({ method: 'GET', url: '/api/v2/dev/swagger' }));
  });

  it('orders, trades, favourites, balances, the member and the portfolio', async () => {
    await credit(ann, 'eth', 10n ** 18n);
    await credit(bob, 'btc', 10n ** 8n);
    const sell = await as(ann, 'POST', '/market/orders', {
      market: 'ethbtc',
      side: 'sell',
      volume: '0.5',
      price: '0.07',
    });
    ok(sell, 201);
    ok(
      await as(bob, 'POST', '/market/orders', {
        market: 'ethbtc',
        side: 'buy',
        volume: '0.1',
        price: '0.07',
      }),
      201,
    );
    ok(await get('/public/markets/ethbtc/trades'));
    ok(await get('/public/markets/ethbtc/order-book'));
    ok(await as(ann, 'GET', '/market/orders?state=wait'));
    ok(await as(ann, 'GET', `/market/orders/${sell.json().id}`));
    ok(await as(ann, 'GET', '/market/trades'));
    ok(await as(ann, 'POST', `/market/orders/${sell.json().id}/cancel`), 201);
    ok(
      await as(ann, 'POST', '/market/orders', {
        market: 'ethbtc',
        side: 'sell',
        volume: '0.1',
        price: '0.08',
      }),
      201,
    );
    ok(await as(ann, 'POST', '/market/orders/cancel', { market: 'ethbtc' }), 201);
    ok(await put(ann, '/account/fav_market', { market_id: 'ethbtc', is_fav: true }));
    ok(await as(ann, 'GET', '/account/fav_market/list'));
    for (const url of [
      '/account/balances',
      '/account/balances/eth',
      '/account/balances/pie_chart',
      '/account/balances/line_chart',
      '/account/members/me',
      '/account/me',
      '/account/portfolio',
      '/account/update/portfolio',
    ])
      ok(await as(ann, 'GET', url));
  });

  it('deposits through the developer faucet, and the histories', async () => {
    const address = await as(ann, 'GET', '/account/deposit_address/trx?blockchain_key=tron-sim');
    ok(address);
    const paid = await dev('/faucet', {
      blockchain_key: 'tron-sim',
      currency: 'trx',
      address: address.json().address,
      amount: '100',
    });
    ok(paid, 201);
    ok(await dev('/mine', { blockchain_key: 'tron-sim', blocks: 40 }));
    await t.deps.wallet.tick();
    ok(await as(ann, 'GET', '/account/deposits'));
    ok(await as(ann, 'GET', `/account/deposits/${paid.json().txid}`));
    for (const url of [
      '/account/transactions',
      '/account/withdraws',
      '/account/adjustments',
      '/account/balance_adjustments',
      '/account/withdraw_permission',
    ])
      ok(await as(ann, 'GET', url));
  });

  it('beneficiaries, a withdrawal, a transfer, removals by code and by mailed link', async () => {
    await credit(ann, 'trx', 500_000_000n);
    const create = async (name: string) => {
      const res = await as(ann, 'POST', '/account/beneficiaries', {
        name,
        currency: 'trx',
        blockchain_key: 'tron-sim',
        data: { address: externalAddress('tron') },
      });
      ok(res, 201);
      return res.json().id as number;
    };
    const id = await create('Cold');
    // Past the one-a-minute resend limit on the app's clock, before each resend.
    const age = () => t.clock.advance(61_000);
    age();
    ok(await as(ann, 'POST', `/account/beneficiaries/${id}/resend_pin`), 201);
    age();
    ok(await as(ann, 'PATCH', `/account/beneficiaries/${id}/resend_pin`));
    const [pin] = await outbox(t, ann.email);
    ok(await as(ann, 'PATCH', `/account/beneficiaries/${id}/activate`, { pin: pin?.secret }));
    ok(await as(ann, 'GET', '/account/beneficiaries?currency=trx'));
    ok(await as(ann, 'GET', `/account/beneficiaries/${id}`));
    ok(
      await as(ann, 'POST', '/account/withdraws', {
        amount: '20',
        otp: await freshTotp(t, ann),
        beneficiary_id: id,
        currency: 'trx',
      }),
      201,
    );
    ok(
      await as(ann, 'POST', '/account/internal_transfers', {
        currency: 'trx',
        password: PASSWORD,
        recipient: bob.email,
        amount: '12',
      }),
      201,
    );

    // The travel rule: the provider directory, and a self-hosted address proved with a signed message.
    ok(await as(ann, 'GET', '/account/travel_rule/providers'));
    const own = Wallet.createRandom();
    const tronOwn = TronWeb.address.fromPrivateKey(own.privateKey.slice(2)) as string;
    const saved = await as(ann, 'POST', '/account/beneficiaries', {
      name: 'Mine',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: tronOwn },
      beneficiary_name: 'Ann Example',
      hosting: 'self_hosted',
    });
    ok(saved, 201);
    const challenge = await as(ann, 'POST', `/account/beneficiaries/${saved.json().id}/ownership_challenge`);
    ok(challenge, 201);
    const tronWeb = new TronWeb({ fullHost: 'http://127.0.0.1:9' });
    ok(
      await as(ann, 'POST', `/account/beneficiaries/${saved.json().id}/ownership_proof`, {
        challenge_id: challenge.json().challenge_id,
        signature: await tronWeb.trx.signMessageV2(challenge.json().message, own.privateKey.slice(2)),
      }),
    );

    const gone = await create('Old');
    ok(await as(ann, 'DELETE', `/account/beneficiaries/${gone}`, { otp: await freshTotp(t, ann) }), 204);
    const mailed = await create('Mailed');
    ok(await as(ann, 'DELETE', `/account/beneficiaries/${mailed}`), 202);
    const [link] = await outbox(t, ann.email);
    const token = encodeURIComponent(link?.secret ?? '');
    ok(await get(`/public/beneficiaries/removal?token=${token}`));
    ok(
      await t.app.inject({
        method: 'POST',
        url: '/api/v2/peatio/public/beneficiaries/removal',
        payload: { token: link?.secret },
      }),
    );
  });

  it('a bank payout and a swap', async () => {
    await credit(ann, 'eur', 50_000n);
    const payout = await as(ann, 'POST', '/account/fiats/withdraws', {
      currency: 'eur',
      amount: '100',
      iban: 'DE89 3704 0044 0532 0130 00',
      holder: 'Ann Example',
      otp: await freshTotp(t, ann),
    });
    ok(payout, 201);
    ok(await as(ann, 'GET', '/account/fiat/transactions'));
    ok(await as(ann, 'POST', '/account/fiats/withdraw/callback', { id: payout.json().transaction.id }));

    await credit(bob, 'usdt', 10_000_000_000n);
    ok(
      await as(bob, 'POST', '/market/orders', {
        market: 'trxusdt',
        side: 'buy',
        volume: '1000',
        price: '0.1',
      }),
      201,
    );
    await t.deps.core.sequencer.submit({ type: 'FundLiquidity', currency: 'usdt', amount: 1_000_000_000n });
    const quote = await as(ann, 'GET', '/account/amount_quote?from_currency=trx&to_currency=usdt&amount=50');
    ok(quote);
    ok(
      await as(ann, 'POST', '/account/swaps', {
        from_currency: 'trx',
        to_currency: 'usdt',
        amount: '50',
        quote_id: quote.json().quote_id,
      }),
      201,
    );
    ok(await as(ann, 'GET', '/account/swaps'));
  });

  it('a SEPA deposit of a verified business', async () => {
    await t.db.pool.query(`update users set account_type = 'business', level = 3 where id = $1`, [ann.id]);
    const details = await as(ann, 'GET', '/account/bank_deposit');
    ok(details);
    ok(await deliverBankCredit(t, { amount: '42.10', reference: details.json().reference }));
  });

  it("a business's mass payout: upload, list, read, execute, discard", async () => {
    const biz = await member(t, 'biz@peatiodocs.test');
    await t.db.pool.query(`update users set account_type = 'business' where id = $1`, [biz.id]);
    await credit(biz, 'trx', 100_000_000n);
    const upload = (csv: string) => {
      const boundary = '----peatiodocs';
      return t.app.inject({
        method: 'POST',
        url: '/api/v2/peatio/account/payouts',
        headers: { ...biz.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="p.csv"\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      });
    };
    const header = 'currency,network,recipient,amount,reference';
    const file = await upload(`${header}\ntrx,tron-sim,${externalAddress('tron')},10,docs\n`);
    ok(file, 201);
    const id = file.json().id as number;
    ok(await as(biz, 'GET', '/account/payouts'));
    ok(await as(biz, 'POST', `/account/payouts/${id}/execute`, { otp: await freshTotp(t, biz) }), 202);
    for (
      let i = 0;
      i < 100 && (await as(biz, 'GET', `/account/payouts/${id}`)).json().state !== 'executed';
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 25));
    ok(await as(biz, 'GET', `/account/payouts/${id}`));
    const other = await upload(`${header}\ntrx,tron-sim,${externalAddress('tron')},11,docs\n`);
    ok(other, 201);
    ok(await as(biz, 'DELETE', `/account/payouts/${other.json().id}`), 204);
  });

  it('the test-only clock control (NODE_ENV=test)', async () => {
    ok(await t.app.inject({ method: 'GET', url: '/api/v2/dev/clock' }));
    ok(await dev('/clock', { advance_ms: 0 }));
  });

  it("the member's proof of liabilities", async () => {
    await makeSnapshot(t.db.pool, t.deps.keys, null);
    ok(await as(ann, 'GET', '/account/solvency/proof'));
  });

  it('every answer matches the documents, and every operation but the card was answered with a success', async () => {
    const docs = await documents(t);
    expect(checkAnswers(docs, answers)).toEqual([]);
    const missing = uncovered(docs, answers, ['peatio', 'dev']);
    // The card suite's operations are answered in openapi-live-card.test.ts.
    const cardPaths = /(card|cardholder|topup|price\/conversion|password\/retrieval|upload_document)/;
    expect(missing.filter((m) => !cardPaths.test(m))).toEqual([]);
  });
});
