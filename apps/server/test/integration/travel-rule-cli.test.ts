import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { offlineTravelRuleDesk } from '../../src/compose-providers.ts';
import {
  TRAVEL_RULE_USAGE,
  travelRuleCommand,
} from '../../src/modules/compliance/travel-rule/network-commands.ts';
import { externalAddress, type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * The operator's command line for the travel-rule simulator (`npm run cli -- travel-rule ...`): what the network
 * knows (whose a sending address is, how a provider answers, the records providers delivered for incoming
 * transfers) is entered here instead of by SQL, and the app acts on it as on a real service's answers.
 */
const w = walletSuite({ TRAVEL_RULE_INCOMING_WAIT_MINUTES: '10', TRAVEL_RULE_TIMEOUT_MS: '300' });
const CONFIRMATIONS = 30;
let dir: string;
let printed: string[];
let complained: string[];

beforeAll(async () => {
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  dir = await mkdtemp(join(tmpdir(), 'travel-rule-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const pool = () => w.t.db.pool;

/** Runs `travel-rule <args>` as the CLI does; its exit code and what it printed. */
async function cli(...args: string[]) {
  printed = [];
  complained = [];
  vi.spyOn(console, 'log').mockImplementation((m: string) => void printed.push(String(m)));
  vi.spyOn(console, 'error').mockImplementation((m: string) => void complained.push(String(m)));
  const { config } = w.t.deps;
  const code = await travelRuleCommand(['travel-rule', ...args], pool(), config.travelRule, () =>
    offlineTravelRuleDesk(config, pool()),
  );
  vi.restoreAllMocks();
  return code;
}

/** Sends `trx` TRX from the faucet to `who`'s deposit address (one block). */
async function sent(who: Member, trx: bigint) {
  const address = await w.depositAddress(who);
  const txid = await w.tron.faucet(address, 'trx', trx * TRX);
  await w.mine(1);
  const row = (
    await pool().query('select id::int, from_address from deposits where txid = $1 and address = $2', [
      txid,
      address,
    ])
  ).rows[0];
  return { txid, address, id: row.id as number, from: row.from_address as string };
}

const status = async (id: number) =>
  (
    await pool().query(
      'select state, travel_rule_status, travel_rule, credited_at is not null as credited from deposits where id = $1',
      [id],
    )
  ).rows[0];

describe('npm run cli -- travel-rule', () => {
  it('attributes a sender to a provider, and the record entered later credits the deposit', async () => {
    const who = await w.member('cli-record@travel-cli.test');
    const d = await sent(who, 21n);
    expect(await cli('provider', 'add', 'tron-sim', d.from, 'nordwind')).toBe(0);
    expect(printed.join('\n')).toContain(`${d.from} is held by nordwind`);
    await w.mine(CONFIRMATIONS);
    expect(await status(d.id)).toMatchObject({ state: 'submitted', travel_rule_status: 'awaiting' });

    expect(
      await cli(
        'incoming',
        'record',
        'tron-sim',
        d.txid,
        d.address,
        'nordwind',
        '--originator',
        'Lis, Piotr',
      ),
    ).toBe(0);
    await pool().query(
      `update deposits set travel_rule_checked_at = now() - interval '1 minute' where id = $1`,
      [d.id],
    );
    await w.mine(1);
    const row = await status(d.id);
    expect(row).toMatchObject({ travel_rule_status: 'received', credited: true });
    // The sender's account defaults to the one the chain named.
    expect(row.travel_rule.payload.originator).toEqual({
      originatorPersons: [
        {
          naturalPerson: {
            name: {
              nameIdentifier: [
                { primaryIdentifier: 'Lis', secondaryIdentifier: 'Piotr', nameIdentifierType: 'LEGL' },
              ],
            },
          },
        },
      ],
      accountNumber: [d.from],
    });
    expect(w.balance(who, 'trx')).toEqual({ balance: 21n * TRX, locked: 0n });

    expect(await cli('list')).toBe(0);
    const listed = JSON.parse(printed.join('\n'));
    expect(listed.addresses).toContainEqual({
      blockchain_key: 'tron-sim',
      address: d.from,
      provider_id: 'nordwind',
    });
    expect(listed.incoming).toContainEqual(
      expect.objectContaining({ txid: d.txid, address: d.address, provider_id: 'nordwind' }),
    );
    expect(await cli('provider', 'remove', 'tron-sim', d.from)).toBe(0);
    expect(await cli('provider', 'remove', 'tron-sim', d.from)).toBe(1);
    expect(complained.join('\n')).toContain('was not attributed');
  });

  it('enters a record naming nobody, or a whole IVMS 101 file: the deposit is held after the window', async () => {
    const who = await w.member('cli-nameless@travel-cli.test');
    const d = await sent(who, 17n);
    expect(await cli('incoming', 'record', 'tron-sim', d.txid, d.address, 'alpenkrypto', '--nameless')).toBe(
      0,
    );
    await pool().query(`update deposits set created_at = now() - interval '11 minutes' where id = $1`, [
      d.id,
    ]);
    await w.mine(CONFIRMATIONS);
    expect(await status(d.id)).toMatchObject({
      state: 'submitted',
      travel_rule_status: 'held',
      credited: false,
    });

    const other = await sent(who, 9n);
    const file = join(dir, 'record.json');
    const record = {
      originator: {
        originatorPersons: [
          { legalPerson: { name: { nameIdentifier: [{ legalPersonName: 'Sender Sp. z o.o.' }] } } },
        ],
        accountNumber: ['ACC-1'],
      },
    };
    await writeFile(file, JSON.stringify(record));
    expect(
      await cli('incoming', 'record', 'tron-sim', other.txid, other.address, 'vistula', '--file', file),
    ).toBe(0);
    await w.mine(CONFIRMATIONS);
    expect(await status(other.id)).toMatchObject({ travel_rule_status: 'received', credited: true });
    expect((await status(other.id)).travel_rule.payload).toEqual(record);
    expect(await cli('incoming', 'remove', 'tron-sim', other.txid, other.address)).toBe(0);
    expect(await cli('incoming', 'remove', 'tron-sim', other.txid, other.address)).toBe(1);
  });

  it('sets how a provider answers our withdrawals: refused, the withdrawal waits for review', async () => {
    const who = await w.member('cli-behave@travel-cli.test');
    await pool().query(
      `insert into profiles (user_id, first_name, last_name, country, state) values ($1, 'Ola', 'Nowak', 'PL', 'verified')`,
      [who.id],
    );
    await w.credit(who, 'trx', 100n * TRX);
    const created = await w.call(who, 'POST', '/account/beneficiaries', {
      name: 'At Vistula',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: externalAddress('tron') },
      beneficiary_name: 'Piotr Lis',
      hosting: 'provider',
      provider_id: 'vistula',
    });
    const id = created.json().id as number;
    const pin = await w.emailedPin(who);
    await w.call(who, 'PATCH', `/account/beneficiaries/${id}/activate`, { pin });
    await pool().query(`update beneficiaries set activated_at = now() - interval '2 days' where id = $1`, [
      id,
    ]);

    expect(await cli('provider', 'behave', 'vistula', 'refuse')).toBe(0);
    const refused = await w.withdraw(who, id, '20');
    expect(refused.statusCode, refused.body).toBe(201);
    const row = (
      await pool().query('select state, review_reasons from withdrawals where id = $1', [refused.json().id])
    ).rows[0];
    expect(row).toEqual({ state: 'under_review', review_reasons: ['travel_rule.refused'] });
    expect(await cli('provider', 'behave', 'vistula', 'accept')).toBe(0);
    const accepted = await w.withdraw(who, id, '20');
    expect(
      (await pool().query('select state from withdrawals where id = $1', [accepted.json().id])).rows[0].state,
    ).toBe('accepted');
  });

  it('refuses what it cannot use, writing nothing, and says how it is used', async () => {
    const before = (await pool().query('select count(*)::int as n from travel_rule_sim_addresses')).rows[0].n;
    expect(await cli('provider', 'add', 'moon-net', 'TXYZ', 'nordwind')).toBe(1);
    expect(complained.join('\n')).toContain('unknown network moon-net');
    expect(await cli('provider', 'add', 'tron-sim', 'TXYZ', 'nobody')).toBe(1);
    expect(complained.join('\n')).toContain('unknown provider nobody');
    expect(await cli('provider', 'add', 'tron-sim', 'has space', 'nordwind')).toBe(1);
    expect(await cli('provider', 'behave', 'nordwind', 'shrug')).toBe(1);
    expect((await pool().query('select count(*)::int as n from travel_rule_sim_addresses')).rows[0].n).toBe(
      before,
    );

    const bad = join(dir, 'bad.json');
    await writeFile(bad, '[1, 2]');
    expect(await cli('incoming', 'record', 'tron-sim', 'abc', 'TXYZ', 'nordwind', '--file', bad)).toBe(1);
    expect(complained.join('\n')).toContain('not a JSON object');
    await writeFile(bad, '{ nope');
    expect(await cli('incoming', 'record', 'tron-sim', 'abc', 'TXYZ', 'nordwind', '--file', bad)).toBe(1);
    expect(
      await cli('incoming', 'record', 'tron-sim', 'abc', 'TXYZ', 'nordwind', '--file', join(dir, 'none')),
    ).toBe(1);
    // No deposit seen for this transfer: the sender's account must be given.
    expect(
      await cli('incoming', 'record', 'tron-sim', 'abc', 'TXYZ', 'nordwind', '--originator', 'Lis'),
    ).toBe(1);
    expect(complained.join('\n')).toContain('--account');
    expect(
      (await pool().query(`select count(*)::int as n from travel_rule_sim_incoming where txid = 'abc'`))
        .rows[0].n,
    ).toBe(0);
    expect(
      await cli(
        'incoming',
        'record',
        'tron-sim',
        'abc',
        'TXYZ',
        'nordwind',
        '--originator',
        'Lis',
        '--account',
        'A1',
      ),
    ).toBe(0);
    expect(await cli('incoming', 'remove', 'tron-sim', 'abc', 'TXYZ')).toBe(0);

    expect(await cli('incoming', 'record', 'tron-sim', 'abc', 'TXYZ', 'nordwind')).toBe(2);
    expect(await cli('sideways')).toBe(2);
    expect(complained.join('\n')).toBe(TRAVEL_RULE_USAGE);
    // Neither case loads the simulator: a desk asked for would reject the call.
    const noDesk = () => Promise.reject(new Error('the simulator was loaded'));
    // Not a travel-rule command at all: left to the other areas.
    expect(
      await travelRuleCommand(['kyc', 'status', 'x'], pool(), w.t.deps.config.travelRule, noDesk),
    ).toBeUndefined();
    // A real travel-rule service keeps its own data.
    expect(
      await travelRuleCommand(
        ['travel-rule', 'list'],
        pool(),
        { ...w.t.deps.config.travelRule, protocol: 'http' },
        noDesk,
      ),
    ).toBe(1);
  });
});
