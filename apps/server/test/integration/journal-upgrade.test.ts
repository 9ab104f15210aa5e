import { randomBytes } from 'node:crypto';
import type { StatementEntity } from '@exchange/shared';
import type pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { startCore } from '../../src/core/index.ts';
import { engineHash } from '../../src/core/journal/snapshots.ts';
import { journalFailures, verifyJournal } from '../../src/core/journal/verify.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';
import { insertReferenceData } from '../../src/db/seed.ts';
import { accountStatement } from '../../src/modules/admin/statement.ts';
import { plainUser } from '../support/core.ts';

/**
 * A database of the version before the journal (migrations up to 0032), with money, an open order and a client
 * command id as that version's core wrote them (one posting row per account and batch), upgraded in place by a
 * start of this version (issue 28, item 6).
 */
const name = `t_${randomBytes(6).toString('hex')}`;
const admin = createPool(inject('pgAdminUrl'), 1);
let pool: pg.Pool;
afterAll(async () => {
  await pool?.end();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

describe('a database from before the journal', () => {
  it('upgrades in place on start: nothing is lost, the audit and the replay are clean, statements open with it', async () => {
    await admin.query(`create database ${name}`);
    pool = createPool(inject('pgAdminUrl').replace(/\/postgres$/, `/${name}`), 4);
    await migrate(pool, { before: '0033' });
    // The reference rows as that version had them (the currency details of 0035 come with the upgrade).
    await insertReferenceData(pool);
    const alice = await plainUser(pool, 'alice@upgrade.test');
    const bob = await plainUser(pool, 'bob@upgrade.test');
    // What the earlier core wrote: batch 1 credits 1 BTC to Alice and 10 ETH to Bob (her deposit by client id),
    // batch 2 her buy of 1 ETH at 0.05 BTC, resting (0.05 BTC held).
    await pool.query(
      `insert into ledger_postings (batch_seq, account, currency_id, amount, kind) values
         (1, 'external', 'btc', -1, 'batch'), (1, 'u:${alice}:main', 'btc', 1, 'batch'),
         (1, 'external', 'eth', -10, 'batch'), (1, 'u:${bob}:main', 'eth', 10, 'batch'),
         (2, 'u:${alice}:main', 'btc', -0.05, 'batch'), (2, 'u:${alice}:locked', 'btc', 0.05, 'batch')`,
    );
    await pool.query(
      `insert into balances (user_id, currency_id, balance, locked) values ($1, 'btc', 0.95, 0.05), ($2, 'eth', 10, 0)`,
      [alice, bob],
    );
    await pool.query(
      `insert into system_balances (account, currency_id, amount) values ('external', 'btc', -1), ('external', 'eth', -10)`,
    );
    await pool.query(
      `insert into orders (id, user_id, market_id, side, ord_type, price, origin_volume, remaining_volume, executed_volume,
         locked, funds_received, funds_spent, trades_count, state, maker_fee, taker_fee, seq, created_at, updated_at)
       values (1, $1, 'ethbtc', 'buy', 'limit', 0.05, 1, 1, 0, 0.05, 0, 0, 0, 'wait', 0.001, 0.002, 1, now(), now())`,
      [alice],
    );
    await pool.query(`insert into client_commands (ref, batch_seq, ok) values ('deposit:1', 1, true)`);
    await pool.query('update engine_state set batch_seq = 2 where id = 1');

    // The start of this version: the remaining migrations, then the core.
    expect(await migrate(pool)).toEqual(expect.arrayContaining(['0033_command_journal.sql']));
    const core = await startCore(pool);
    expect(core.sequencer.state.balance(alice, 'btc')).toEqual({ balance: 95_000_000n, locked: 5_000_000n });
    expect(core.sequencer.state.order(1)).toMatchObject({
      user: alice,
      remainingVolume: 1000n,
      state: 'wait',
    });
    // The journal starts where the batches ended, and the first snapshot is the tables' state.
    const position = (await pool.query('select batch_seq, next_command from engine_state')).rows[0];
    expect(position).toEqual({ batch_seq: '2', next_command: '1' });
    await core.sequencer.drain();
    // A repeat of a client id the earlier version committed takes no effect.
    const repeat = await core.sequencer.submit(
      { type: 'Credit', user: alice, currency: 'btc', amount: 10n ** 8n, kind: 'deposit' },
      'deposit:1',
    );
    expect(repeat.ok).toBe(true);
    expect(core.sequencer.state.balance(alice, 'btc').balance).toBe(95_000_000n);
    // Bob sells into her resting order: a trade of this version, on the earlier version's order.
    const sold = await core.sequencer.submit(
      {
        type: 'PlaceOrder',
        user: bob,
        market: 'ethbtc',
        side: 'sell',
        ordType: 'limit',
        price: 5000n,
        volume: 1000n,
      },
      undefined,
      { ack: 'journal' },
    );
    expect(sold.ok).toBe(true);
    await core.sequencer.drain();
    expect(await auditLedger(pool)).toEqual([]);
    const report = await verifyJournal(pool);
    expect(journalFailures(report)).toEqual([]);
    expect(report.from).toBe(2);
    // One command journalled: the repeated client id never reached the journal.
    expect(report.commands).toBe(1);
    expect(engineHash(core.sequencer.state).hash).toBe(
      engineHash((await startCore(pool, { projector: 'inline' })).sequencer.state).hash,
    );

    // Her statement opens with what the earlier version's postings hold, then names every movement since.
    const uid = (await pool.query('select uid from users where id = $1', [alice])).rows[0].uid as string;
    const statement: StatementEntity = await accountStatement(
      pool,
      { id: String(alice), uid },
      { currency: 'btc', page: 1, limit: 100 },
    );
    expect(statement.opening).toEqual({ balance: '0.95', locked: '0.05' });
    expect(statement.rows.map((r) => [r.cause, r.ref, r.balance, r.locked])).toEqual([
      ['trade', 'trade:1', '0.95', '0'],
    ]);
  });
});
