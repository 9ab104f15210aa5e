import { createHmac, randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { hotWallet } from '../../src/modules/wallet/addresses.ts';
import { apiKeyFor } from '../support/api-key.ts';
import { sessionFor } from '../support/core.ts';
import { externalAddress, type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * Mass payouts (issue 31, part 3): a verified business uploads a CSV, every row is checked first and refused row
 * by row, the file runs after one authenticator code with each row a withdrawal of its own, and the same bytes are
 * never accepted twice. Refusals with a raw client (no session, a personal account, another business, no code).
 * The ledger audit runs after the file (walletSuite).
 */
const w = walletSuite();
const USDT = 1_000_000n;
const HEADER = 'currency,network,recipient,amount,reference';

/** A verified business (as business registration will leave it: account type business, level 3). */
async function business(email: string): Promise<Member> {
  const who = await w.member(email);
  await w.t.db.pool.query(`update users set account_type = 'business', level = 3 where id = $1`, [who.id]);
  return who;
}

function form(csv: string, name = 'payouts.csv') {
  const boundary = `----payouts${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: text/csv\r\n\r\n`,
    ),
    Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, type: `multipart/form-data; boundary=${boundary}` };
}

const upload = (who: Member | null, csv: string) => {
  const { payload, type } = form(csv);
  return w.t.app.inject({
    method: 'POST',
    url: '/api/v2/peatio/account/payouts',
    headers: { ...(who?.headers ?? {}), 'content-type': type },
    payload,
  });
};
const get = (who: Member, id: number) => w.call(who, 'GET', `/account/payouts/${id}`);
const execute = (who: Member, id: number, body: Record<string, unknown>) =>
  w.call(who, 'POST', `/account/payouts/${id}/execute`, body);

/** Waits until the file's rows are all placed (the execution runs in the background). */
async function executed(who: Member, id: number, timeoutMs = 5_000) {
  for (const until = Date.now() + timeoutMs; Date.now() < until; ) {
    const file = (await get(who, id)).json();
    if (file.state === 'executed') return file;
    await new Promise((resolve) => setTimeout(resolve, timeoutMs > 5_000 ? 500 : 25));
  }
  throw new Error(`file ${id} did not finish`);
}

let friend: Member;
beforeAll(async () => {
  friend = await w.member('friend@payouts.test');
  const network = w.t.deps.wallet.chains.get('tron-sim');
  if (!network) throw new Error('no tron-sim');
  await w.tron.faucet((await hotWallet(w.t.db.pool, network)).address, 'trx', 1000n * TRX);
  await w.mine(1);
});

describe('mass payouts', () => {
  it('are refused without a session, to a personal account, and to a business below level 3', async () => {
    const csv = `${HEADER}\ntrx,tron-sim,${externalAddress('tron')},10,x\n`;
    const anonymous = await upload(null, csv);
    expect(anonymous.statusCode).toBe(401);
    const personal = await w.member('personal@payouts.test');
    await w.credit(personal, 'trx', 100n * TRX);
    const refused = await upload(personal, csv);
    expect([refused.statusCode, refused.json().errors]).toEqual([403, ['account.payout.business_required']]);
    const list = await w.call(personal, 'GET', '/account/payouts');
    expect([list.statusCode, list.json().errors]).toEqual([403, ['account.payout.business_required']]);
    const pending = await business('pending@payouts.test');
    await w.t.db.pool.query('update users set level = 2 where id = $1', [pending.id]);
    expect((await upload(pending, csv)).statusCode).toBe(403);
    // A verified business's API key: refused before the body is read (a leaked key must not pay anyone).
    const keyed = await business('keyed@payouts.test');
    const { kid, secret } = await apiKeyFor(w.t.db.pool, keyed.email);
    const nonce = String(Date.now());
    const { payload, type } = form(csv);
    const byKey = await w.t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/account/payouts',
      headers: {
        'content-type': type,
        'x-auth-apikey': kid,
        'x-auth-nonce': nonce,
        'x-auth-signature': createHmac('sha256', secret).update(`${nonce}${kid}`).digest('hex'),
      },
      payload,
    });
    expect([byKey.statusCode, byKey.json().errors]).toEqual([403, ['authz.session_required']]);
    expect(await w.t.db.pool.query('select 1 from payout_files')).toMatchObject({ rowCount: 0 });
  });

  it('checks every row first and answers each bad one with its line and codes, storing nothing', async () => {
    const payer = await business('checks@payouts.test');
    await w.credit(payer, 'trx', 100n * TRX);
    await w.credit(payer, 'usdt', 1000n * USDT);
    // A daily limit of 300 USDT at level 3: the third 100-USDT row (101 with its fee) passes it.
    await w.t.db.pool.query(
      `insert into withdraw_limits (level, currency_id, per_day) values (3, 'usdt', 300)
       on conflict (level, currency_id) do update set per_day = 300`,
    );
    const good = externalAddress('tron');
    const typo = `${good.slice(0, -1)}${good.endsWith('1') ? '2' : '1'}`;
    const evm = externalAddress('evm');
    const badChecksum = `0x${evm.slice(2, 3) === evm.slice(2, 3).toLowerCase() ? evm.slice(2, 3).toUpperCase() : evm.slice(2, 3).toLowerCase()}${evm.slice(3)}`;
    const csv = [
      HEADER,
      `trx,tron-sim,${good},10,ok`, // line 2
      `trx,tron-sim,${typo},10,checksum`, // 3
      'trx,tron-sim,nobody@payouts.test,10,unknown email', // 4
      `trx,tron-sim,${good},8.5,below the minimum`, // 5
      `trx,tron-sim,${good},1.0000001,too precise`, // 6
      `trx,btc-sim,${good},10,no such network`, // 7
      `usdt,eth-devnet,${badChecksum},20,EIP-55`, // 8
      `usdt,tron-sim,${good},100,day 1`, // 9
      `usdt,tron-sim,${good},100,day 2`, // 10
      `usdt,tron-sim,${good},100,day 3`, // 11
      'checks@payouts.test,x', // 12
      `trx,tron-sim,checks@payouts.test,10,self`, // 13
      `trx,tron-sim,${good},-1,negative`, // 14
    ].join('\n');
    const res = await upload(payer, csv);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual(['account.payout.invalid_rows']);
    expect(res.json().rows).toEqual([
      { row: 3, errors: ['account.payout.row.invalid_address'] },
      { row: 4, errors: ['account.payout.row.recipient_not_found'] },
      { row: 5, errors: ['account.payout.row.amount_too_small'] },
      { row: 6, errors: ['account.payout.row.invalid_amount'] },
      { row: 7, errors: ['account.payout.row.invalid_network'] },
      { row: 8, errors: ['account.payout.row.invalid_address'] },
      { row: 11, errors: ['account.payout.row.over_daily_limit'] },
      { row: 12, errors: ['account.payout.row.invalid_columns'] },
      { row: 13, errors: ['account.payout.row.self_payout'] },
      { row: 14, errors: ['account.payout.row.invalid_amount'] },
    ]);
    await w.t.db.pool.query(`delete from withdraw_limits where level = 3 and currency_id = 'usdt'`);

    // Every row right, but the whole file with its fees is more than the balance: 100 TRX = 99 + the 1 TRX fee.
    const short = await upload(
      payer,
      `${HEADER}\ntrx,tron-sim,${good},60,a\ntrx,tron-sim,${good},39.000001,b\n`,
    );
    expect(short.json()).toMatchObject({
      errors: ['account.payout.insufficient_balance'],
      rows: [],
      shortfall: [{ currency: 'trx', needed: '101.000001', available: '100' }],
    });
    const header = await upload(payer, `currency,amount\ntrx,10\n`);
    expect(header.json().errors).toEqual(['account.payout.invalid_header']);
    const empty = await upload(payer, `${HEADER}\n\n`);
    expect(empty.json().errors).toEqual(['account.payout.empty_file']);
    const many = await upload(payer, `${HEADER}\n${`trx,tron-sim,${good},10,x\n`.repeat(1001)}`);
    expect(many.json().errors).toEqual(['account.payout.too_many_rows']);
    const quote = await upload(payer, `${HEADER}\ntrx,tron-sim,"${good},10,x\n`);
    expect(quote.json().errors).toEqual(['account.payout.unreadable_file']);
    // Past 512 KiB the file is refused; a body far past it is refused by its length before it is read.
    const big = await upload(payer, `${HEADER}\n${'x'.repeat(520 * 1024)}`);
    expect([big.statusCode, big.json().errors]).toEqual([422, ['account.payout.file_too_large']]);
    const huge = await upload(payer, `${HEADER}\n${'x'.repeat(2048 * 1024)}`);
    expect([huge.statusCode, huge.json().errors]).toEqual([413, ['server.payload_too_large']]);
    expect(await w.t.db.pool.query('select 1 from payout_files')).toMatchObject({ rowCount: 0 });
    expect(w.balance(payer, 'trx')).toEqual({ balance: 100n * TRX, locked: 0n });
  });

  it('executes a valid file once, after one code, each row a withdrawal; the same bytes are refused', async () => {
    const payer = await business('payer@payouts.test');
    const rival = await business('rival@payouts.test');
    await w.credit(payer, 'trx', 200n * TRX);
    const outside = externalAddress('tron');
    const friendAddress = await w.depositAddress(friend);
    const csv = [
      HEADER,
      `trx,tron-sim,${outside},40,"Invoice 17, March"`,
      'TRX,tron-sim,Friend@Payouts.test,12.5,salary',
      `trx,tron-sim,${friendAddress},10,refund`,
    ].join('\r\n');
    const res = await upload(payer, csv);
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json();
    expect(file).toMatchObject({
      file_name: 'payouts.csv',
      state: 'validated',
      row_count: 3,
      // 62.5 to the recipients and one 1-TRX fee for the outside address.
      totals: [{ currency: 'trx', amount: '62.5', fees: '1' }],
      progress: { pending: 3 },
    });
    expect(
      file.rows.map((r: Record<string, unknown>) => [
        r.row,
        r.kind,
        r.recipient,
        r.amount,
        r.fee,
        r.reference,
      ]),
    ).toEqual([
      [2, 'address', outside, '40', '1', 'Invoice 17, March'],
      [3, 'internal', 'friend@payouts.test', '12.5', '0', 'salary'],
      [4, 'internal', friendAddress, '10', '0', 'refund'],
    ]);

    // The same bytes again: refused, naming the file that has them. Other bytes of the same rows are a new file.
    const again = await upload(payer, csv);
    expect([again.statusCode, again.json()]).toEqual([
      409,
      { errors: ['account.payout.duplicate_file'], file_id: file.id },
    ]);

    // Another business can neither read, run nor discard it; a personal account is refused before that.
    expect((await get(rival, file.id)).statusCode).toBe(404);
    const foreign = await execute(rival, file.id, { otp: await w.totp(rival) });
    expect(foreign.statusCode).toBe(404);
    expect((await w.call(rival, 'DELETE', `/account/payouts/${file.id}`)).statusCode).toBe(404);
    expect((await w.call(rival, 'GET', '/account/payouts')).json()).toEqual([]);
    expect((await execute(friend, file.id, { otp: await w.totp(friend) })).statusCode).toBe(403);

    // No code, a wrong one: refused, nothing moves.
    const none = await execute(payer, file.id, {});
    expect([none.statusCode, none.json().errors]).toEqual([422, ['account.payout.missing_otp']]);
    const wrong = await execute(payer, file.id, { otp: '000000' });
    expect([wrong.statusCode, wrong.json().errors]).toEqual([422, ['account.payout.invalid_otp']]);
    expect(w.balance(payer, 'trx')).toEqual({ balance: 200n * TRX, locked: 0n });

    const run = await execute(payer, file.id, { otp: await w.totp(payer) });
    expect(run.statusCode, run.body).toBe(202);
    expect(run.json()).toMatchObject({ id: file.id, state: 'executing' });
    const done = await executed(payer, file.id);
    expect(done.rows.map((r: Record<string, unknown>) => r.state)).toEqual([
      'accepted',
      'succeed',
      'succeed',
    ]);
    expect(done.rows.every((r: Record<string, unknown>) => typeof r.withdrawal_id === 'number')).toBe(true);
    // 41 held for the outside address (40 + fee), 22.5 gone to the friend.
    expect(w.balance(payer, 'trx')).toEqual({ balance: 136_500_000n, locked: 41n * TRX });
    expect(w.balance(friend, 'trx').balance).toBe(22_500_000n);
    const withdrawals = (await w.call(payer, 'GET', '/account/withdraws')).json();
    expect(withdrawals.map((x: Record<string, unknown>) => [x.amount, x.fee, x.rid]).sort()).toEqual(
      [
        ['41', '1', outside],
        ['12.5', '0', 'friend@payouts.test'],
        ['10', '0', friendAddress],
      ].sort(),
    );

    // Executed: not again, not discarded, and its bytes still refused.
    const twice = await execute(payer, file.id, { otp: await w.totp(payer) });
    expect(twice.json().errors).toEqual(['account.payout.already_executed']);
    expect((await w.call(payer, 'DELETE', `/account/payouts/${file.id}`)).json().errors).toEqual([
      'account.payout.already_executed',
    ]);
    expect((await upload(payer, csv)).statusCode).toBe(409);

    // The outside row follows its withdrawal to the chain and its confirmations.
    await w.t.deps.wallet.tick();
    await w.mine(30);
    const final = (await get(payer, file.id)).json();
    expect(final.rows[0]).toMatchObject({ state: 'succeed', txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(final.progress).toEqual({ succeed: 3 });
    expect(await w.tronChain.balance(outside, 'trx')).toBe(40n * TRX);
    expect(w.balance(payer, 'trx')).toEqual({ balance: 136_500_000n, locked: 0n });
  });

  it('discards a file never executed, which frees its bytes', async () => {
    const payer = await business('discard@payouts.test');
    await w.credit(payer, 'trx', 50n * TRX);
    const csv = `${HEADER}\ntrx,tron-sim,${externalAddress('tron')},10,x\n`;
    const first = (await upload(payer, csv)).json();
    expect((await upload(payer, csv)).statusCode).toBe(409);
    const gone = await w.call(payer, 'DELETE', `/account/payouts/${first.id}`);
    expect(gone.statusCode).toBe(204);
    expect((await get(payer, first.id)).statusCode).toBe(404);
    expect((await upload(payer, csv)).statusCode).toBe(201);
    // Each file is checked against the balance alone; at execution the balance is checked again.
    const second = await upload(payer, `${HEADER}\ntrx,tron-sim,${externalAddress('tron')},44,y\n`);
    expect(second.statusCode, second.body).toBe(201);
    expect((await execute(payer, second.json().id, { otp: await w.totp(payer) })).statusCode).toBe(202);
    await executed(payer, second.json().id);
    const late = await execute(payer, first.id + 1, { otp: await w.totp(payer) });
    expect(late.json()).toMatchObject({
      errors: ['account.payout.insufficient_balance'],
      shortfall: [{ currency: 'trx', needed: '11', available: '5' }],
    });
    expect((await get(payer, first.id + 1)).json()).toMatchObject({
      state: 'validated',
      progress: { pending: 1 },
    });
  });

  it('takes 1,000 rows without stalling the event loop, and pays them all', async () => {
    const payer = await business('thousand@payouts.test');
    await w.credit(payer, 'trx', 12_000n * TRX);
    const lines = Array.from({ length: 1000 }, (_, i) =>
      i % 100 === 0
        ? `trx,tron-sim,${friend.email},10,r${i}`
        : `trx,tron-sim,${externalAddress('tron')},10,r${i}`,
    );
    const csv = `${HEADER}\n${lines.join('\n')}\n`;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = Date.now();
    const res = await upload(payer, csv);
    delay.disable();
    expect(res.statusCode, res.body.slice(0, 500)).toBe(201);
    expect(res.json()).toMatchObject({
      row_count: 1000,
      totals: [{ currency: 'trx', amount: '10000', fees: '990' }],
    });
    // The whole check is a few queries and cheap per-row work, in slices: no turn of the loop takes long.
    expect(delay.max / 1e6).toBeLessThan(250);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await execute(payer, res.json().id, { otp: await w.totp(payer) })).statusCode).toBe(202);
    const done = await executed(payer, res.json().id, 60_000);
    expect(done.progress).toEqual({ accepted: 990, succeed: 10 });
    expect(w.balance(payer, 'trx')).toEqual({ balance: 1_010n * TRX, locked: 10_890n * TRX });
  }, 120_000);

  it('resumes a file whose runner stopped, leaving the row it was placing to an operator', async () => {
    const payer = await business('resume@payouts.test');
    await w.credit(payer, 'trx', 100n * TRX);
    const csv = [HEADER, ...[1, 2, 3].map((i) => `trx,tron-sim,${externalAddress('tron')},10,r${i}`)].join(
      '\n',
    );
    const { id } = (await upload(payer, csv)).json();
    // As a process that stopped while placing line 2 would leave it: executing, silent for two minutes.
    await w.t.db.pool.query(
      `update payout_files set state = 'executing', executed_at = now(), run_at = now() - interval '2 minutes'
       where id = $1`,
      [id],
    );
    await w.t.db.pool.query(`update payout_rows set state = 'placing' where file_id = $1 and line = 2`, [id]);
    const done = await executed(payer, id);
    expect(done.rows.map((r: Record<string, unknown>) => [r.row, r.state])).toEqual([
      [2, 'interrupted'],
      [3, 'accepted'],
      [4, 'accepted'],
    ]);
    expect(w.balance(payer, 'trx')).toEqual({ balance: 78n * TRX, locked: 22n * TRX });
  });

  // Last in the file: it moves the app's clock a day on, past every session made before.
  it("counts the daily limit in the 24 hours before the app's clock", async () => {
    const payer = await business('day@payouts.test');
    await w.credit(payer, 'trx', 200n * TRX);
    await w.t.db.pool.query(
      `insert into withdraw_limits (level, currency_id, per_day) values (3, 'trx', 100)
       on conflict (level, currency_id) do update set per_day = 100`,
    );
    const rows = (...amounts: number[]) =>
      [HEADER, ...amounts.map((a, i) => `trx,tron-sim,${externalAddress('tron')},${a},r${i}`)].join('\n');
    const first = (await upload(payer, rows(40, 40))).json();
    expect((await execute(payer, first.id, { otp: await w.totp(payer) })).statusCode).toBe(202);
    await executed(payer, first.id);
    // 82 with the fees went out today: 30 more (31) is over 100.
    const next = rows(30);
    expect((await upload(payer, next)).json().rows).toEqual([
      { row: 2, errors: ['account.payout.row.over_daily_limit'] },
    ]);
    // A day and a minute later on the app's clock they are out of the window (a new session: the old one ended).
    w.t.clock.advance(24 * 3_600_000 + 60_000);
    payer.headers = await sessionFor(w.t.deps.sessions, payer.id);
    const later = await upload(payer, next);
    expect([later.statusCode, later.json().state], later.body).toEqual([201, 'validated']);
    await w.t.db.pool.query(`delete from withdraw_limits where level = 3 and currency_id = 'trx'`);
  });
});
