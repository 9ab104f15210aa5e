import { validateAddress } from '@exchange/shared';
import { describe, expect, it, vi } from 'vitest';
import { publicKeyAt } from '../../src/modules/custody/hd.ts';
import { privateStreamKey } from '../../src/modules/ranger/streams.ts';
import { uncheckedSigner } from '../support/unchecked-signer.ts';
import { TRX, walletSuite } from '../support/wallet.ts';

/** Deposit addresses, deposits on the simulated TRON chain (confirmations, reorgs, minimum), and the history lists. */
const w = walletSuite();
const { member, call, balance, depositAddress, deposits, mine } = w;

describe('deposit addresses', () => {
  it('refuses an address while deposits are switched off for the network', async () => {
    const ann = await member('off@wallet.test');
    const off = (on: boolean) =>
      w.t.db.pool.query(
        `update currency_networks set deposit_enabled = $1 where currency_id = 'trx' and blockchain_key = 'tron-sim'`,
        [on],
      );
    await off(false);
    try {
      const res = await call(ann, 'GET', '/account/deposit_address/trx?blockchain_key=tron-sim');
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual(['account.deposit.disabled']);
      const rows = await w.t.db.pool.query('select 1 from deposit_addresses where user_id = $1', [ann.id]);
      expect(rows.rowCount).toBe(0);
    } finally {
      await off(true);
    }
  });

  it('gives one address per user and network, shared by the currencies on it', async () => {
    const ann = await member('ann@wallet.test');
    const trx = await depositAddress(ann);
    expect(trx).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(await depositAddress(ann)).toBe(trx);
    expect(await depositAddress(ann, 'usdt', 'tron-sim')).toBe(trx);
    const bob = await member('bob@wallet.test');
    expect(await depositAddress(bob)).not.toBe(trx);
  });

  it('are derived from the published xpubs; an address of an earlier version is no longer handed out but still receives', async () => {
    const ola = await member('old@wallet.test');
    const trx = await depositAddress(ola);
    expect(validateAddress('tron', trx)).toBe(trx);
    const btc = await depositAddress(ola, 'btc', 'btc-sim');
    expect(btc).toMatch(/^bcrt1q/);
    expect(validateAddress('btc', btc, { btcNetworks: ['regtest'] })).toBe(btc);
    // The same address the signer's key at m/44'/195'/0'/0/<index> controls.
    const row = (await w.t.db.pool.query('select key_index from deposit_addresses where address = $1', [trx]))
      .rows[0];
    const { xpub } = uncheckedSigner(() => ({ purpose: 44, coinType: 195, nativeCurrency: 'trx' }));
    const network = w.t.deps.wallet.chains.get('tron-sim');
    expect(
      network?.chain.addressOf(publicKeyAt(xpub({ purpose: 44, coinType: 195 }, 0), row.key_index)),
    ).toBe(trx);

    // What a database from before holds: an address with a key of its own (now retired), no key index.
    await w.t.db.pool.query('update deposit_addresses set key_index = null where address = $1', [trx]);
    const fresh = await depositAddress(ola);
    expect(fresh).not.toBe(trx);
    expect(validateAddress('tron', fresh)).toBe(fresh);

    // The old address still receives: a deposit to it is credited to its owner.
    await w.tron.faucet(trx, 'trx', 3n * TRX);
    await w.tron.faucet(fresh, 'trx', 2n * TRX);
    await mine(1);
    const amounts = (await deposits(ola)).map((d: { amount: string }) => d.amount);
    expect(amounts.sort()).toEqual(['2', '3']);
  });

  it('the faucet takes only addresses valid on its network', async () => {
    const faucet = (blockchain_key: string, currency: string, address: string) =>
      w.t.app.inject({
        method: 'POST',
        url: '/api/v2/dev/faucet',
        payload: { blockchain_key, currency, address, amount: '1' },
      });
    for (const [network, currency, address] of [
      ['tron-sim', 'trx', `T${'x'.repeat(33)}`],
      ['btc-sim', 'btc', `bcrt1q${'x'.repeat(38)}`],
      ['btc-sim', 'btc', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    ]) {
      const res = await faucet(network!, currency!, address!);
      expect(res.statusCode, address).toBe(422);
      expect(res.json().errors).toEqual(['dev.faucet.invalid_address']);
    }
    const ok = await faucet('btc-sim', 'btc', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080');
    expect(ok.statusCode).toBe(201);
  });

  it('eur and usd deposit as usdt; unknown currencies and networks are refused', async () => {
    const ann = await member('ann2@wallet.test');
    const eur = (await call(ann, 'GET', '/account/deposit_address/eur?blockchain_key=tron-sim')).json();
    expect(eur.currency).toBe('usdt');
    const bad = await call(ann, 'GET', '/account/deposit_address/xyz');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual(['account.blockchain.doesnt_exist']);
    const wrongNet = await call(ann, 'GET', '/account/deposit_address/trx?blockchain_key=btc-sim');
    expect(wrongNet.statusCode).toBe(422);
  });

  it('needs a signed-in user', async () => {
    const res = await w.t.app.inject({ method: 'GET', url: '/api/v2/peatio/account/deposit_address/trx' });
    expect(res.statusCode).toBe(401);
  });
});

describe('deposits on a simulated chain', () => {
  it('is pending until 30 confirmations, then credited exactly once; a new address follows', async () => {
    const cat = await member('cat@wallet.test');
    const address = await depositAddress(cat);
    await w.tron.faucet(address, 'trx', 25n * TRX);
    await mine(1);
    let list = await deposits(cat);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      currency: 'trx',
      amount: '25',
      state: 'submitted',
      confirmations: 1,
      rid: address,
    });
    expect(balance(cat, 'trx').balance).toBe(0n);
    await mine(28);
    expect((await deposits(cat))[0]).toMatchObject({ state: 'submitted', confirmations: 29 });
    expect(balance(cat, 'trx').balance).toBe(0n);
    await mine(1);
    list = await deposits(cat);
    expect(list[0].state).toBe('collected');
    expect(balance(cat, 'trx').balance).toBe(25n * TRX);
    // Swept to the hot wallet on chain, once the sweep is mined; the movement is on record.
    await mine(1);
    expect(await w.tronChain.balance(address, 'trx')).toBe(0n);
    const sweep = (
      await w.t.db.pool.query(
        `select t.kind, t.amount::text, t.state from custody_transfers t join deposits d on d.custody_transfer_id = t.id
         where d.id = $1`,
        [list[0].id],
      )
    ).rows[0];
    expect(sweep).toEqual({ kind: 'sweep', amount: '25.000000000000000000', state: 'confirmed' });

    const fresh = await depositAddress(cat);
    expect(fresh).not.toBe(address);
    // The old address keeps working.
    await w.tron.faucet(address, 'trx', 5n * TRX);
    await mine(30);
    expect(balance(cat, 'trx').balance).toBe(30n * TRX);

    // Re-scanning every block (as after a lost cursor) credits nothing twice.
    await w.t.db.pool.query(`delete from chain_blocks where blockchain_key = 'tron-sim'`);
    await w.t.deps.wallet.tick();
    await w.t.deps.wallet.tick();
    expect(balance(cat, 'trx').balance).toBe(30n * TRX);
    expect(await deposits(cat)).toHaveLength(2);
  });

  it('GET /account/deposits/{txid} answers the one deposit of that transaction, only to its owner', async () => {
    const dee = await member('dee@wallet.test');
    await w.tron.faucet(await depositAddress(dee), 'trx', 12n * TRX);
    await mine(1);
    const [listed] = await deposits(dee);
    expect(listed.txid).toMatch(/^[0-9a-f]{64}$/);
    const one = await call(dee, 'GET', `/account/deposits/${listed.txid}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(listed);
    // Someone else asking for it, or for a transaction that paid nobody here: the same 404.
    const ezra = await member('ezra@wallet.test');
    for (const [who, txid] of [
      [ezra, listed.txid],
      [dee, 'f'.repeat(64)],
    ] as const) {
      const res = await call(who, 'GET', `/account/deposits/${txid}`);
      expect([res.statusCode, res.json()]).toEqual([404, { errors: ['record.not_found'] }]);
    }
    // Longer than any transaction id: refused by the router, in the error envelope.
    const long = await call(dee, 'GET', `/account/deposits/${'a'.repeat(129)}`);
    expect([long.statusCode, long.json()]).toEqual([400, { errors: ['server.invalid_params'] }]);
  });

  it('tells the private deposit stream each new confirmation count while the deposit is pending', async () => {
    const gil = await member('gil@wallet.test');
    const address = await depositAddress(gil);
    const publish = vi.spyOn(w.t.deps.hub, 'publish');
    const counts = () =>
      publish.mock.calls
        .filter(([stream]) => stream === privateStreamKey(gil.id, 'deposit'))
        .map(([, item]) => {
          const d = item as { state: string; confirmations?: number };
          return `${d.state}:${d.confirmations}`;
        });
    try {
      await w.tron.faucet(address, 'trx', 25n * TRX);
      await mine(1);
      await expect.poll(counts).toEqual(['submitted:1']);
      await mine(1);
      await expect.poll(counts).toEqual(['submitted:1', 'submitted:2']);
      await mine(5);
      await expect.poll(counts).toEqual(['submitted:1', 'submitted:2', 'submitted:7']);
      // A pass without a new block tells nothing new.
      await w.t.deps.wallet.tick();
      await mine(22);
      await expect.poll(counts).toEqual(['submitted:1', 'submitted:2', 'submitted:7', 'submitted:29']);
      await mine(1);
      await expect.poll(() => counts().at(-1)).toBe('collected:30');
      expect(
        counts()
          .slice(4)
          .every((c) => !c.startsWith('submitted')),
      ).toBe(true);
    } finally {
      publish.mockRestore();
    }
  });

  it('a reorg before the threshold removes the deposit without a credit', async () => {
    const dan = await member('dan@wallet.test');
    const address = await depositAddress(dan);
    await w.tron.faucet(address, 'trx', 7n * TRX);
    await mine(3);
    expect((await deposits(dan))[0].state).toBe('submitted');
    await w.tron.reorg(3);
    await w.t.deps.wallet.tick();
    await mine(40);
    const [d] = await deposits(dan);
    expect(d.state).toBe('canceled');
    expect(balance(dan, 'trx').balance).toBe(0n);
  });

  it('a reorg after the credit raises an alert and leaves balances alone', async () => {
    const eve = await member('eve@wallet.test');
    const address = await depositAddress(eve);
    await w.tron.faucet(address, 'trx', 9n * TRX);
    await mine(30);
    expect(balance(eve, 'trx').balance).toBe(9n * TRX);
    await w.tron.reorg(31);
    await w.t.deps.wallet.tick();
    expect(balance(eve, 'trx').balance).toBe(9n * TRX);
    const alerts = await w.t.db.pool.query(
      `select detail from chain_alerts where kind = 'reorg_after_credit'`,
    );
    expect(alerts.rows.map((r) => r.detail.user_id)).toContain(eve.id);
  });

  it('a deposit under the network minimum is rejected, not credited', async () => {
    const fay = await member('fay@wallet.test');
    await w.tron.faucet(await depositAddress(fay), 'trx', TRX / 2n);
    await mine(30);
    expect((await deposits(fay))[0].state).toBe('rejected');
    expect(balance(fay, 'trx').balance).toBe(0n);
  });
});

describe('history lists', () => {
  it('filter by the spec state expansions and dates, page, and count in the Total header', async () => {
    const uma = await member('uma@wallet.test');
    const address = await depositAddress(uma);
    for (const amount of [2n, 3n, 4n]) await w.tron.faucet(address, 'trx', amount * TRX);
    await mine(1);
    await w.tron.faucet(await depositAddress(uma), 'trx', 6n * TRX);
    await mine(30);
    await w.tron.faucet(await depositAddress(uma), 'trx', 8n * TRX);
    await mine(1);
    const page = await call(uma, 'GET', '/account/deposits?limit=2&page=1');
    expect(page.headers.total).toBe('5');
    expect(page.json()).toHaveLength(2);
    expect((await deposits(uma, '?state=collected')).length).toBe(4);
    expect((await deposits(uma, '?state=submitted')).length).toBe(1);
    const now = Math.floor(Date.now() / 1000);
    expect((await deposits(uma, `?time_from=${now - 3600}&time_to=${now + 60}`)).length).toBe(5);
    expect((await deposits(uma, `?time_from=${now - 7200}&time_to=${now - 3600}`)).length).toBe(0);
    const reversed = await call(uma, 'GET', `/account/deposits?time_from=${now}&time_to=${now - 60}`);
    expect(reversed.json().errors).toEqual(['account.history.invalid_date_range']);
    const future = await call(uma, 'GET', `/account/deposits?time_from=${now + 10 * 86_400}`);
    expect(future.json().errors).toEqual(['account.history.invalid_date_range']);
    expect((await call(uma, 'GET', '/account/deposits?state=bogus')).statusCode).toBe(422);
  });
});
