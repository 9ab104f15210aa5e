import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBitcoinChain } from '../../src/adapters/chains/bitcoin/adapter.ts';
import { bitcoinExplorer, evmExplorer, tronExplorer } from '../../src/adapters/chains/explorers.ts';
import { NO_SIGNER } from '../../src/adapters/chains/signing.ts';
import { ChainRegistry } from '../../src/modules/wallet/chains.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/**
 * Transaction links (issue 32 item 9): a network whose node is on a public chain links to that chain's
 * well-known explorer; the built-in simulators and devnets have no public explorer and keep null templates
 * (no link rather than a made-up one); an operator's own templates are kept.
 */
let t: TestApp;
let node: Server;
let nodeUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  // A Bitcoin Core that says it is on mainnet: all the adapter asks before it is built.
  node = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: unknown; method: string };
      const result = method === 'getblockchaininfo' ? { chain: 'main', blocks: 1 } : null;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ result, error: null, id }));
    });
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  nodeUrl = `http://user:pass@127.0.0.1:${(node.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => node.close(resolve));
  await t.close();
});

const networksOf = async (currency: string) =>
  (await t.app.inject(`/api/v2/peatio/public/currencies/${currency}`)).json().networks as {
    blockchain_key: string;
    explorer_transaction: string | null;
    explorer_address: string | null;
  }[];

describe('explorer templates', () => {
  it('are the well-known explorers of public chains, and none for simulators and devnets', () => {
    expect(bitcoinExplorer('main')).toEqual({
      transaction: 'https://mempool.space/tx/#{txid}',
      address: 'https://mempool.space/address/#{address}',
    });
    expect(bitcoinExplorer('signet')?.transaction).toBe('https://mempool.space/signet/tx/#{txid}');
    expect(bitcoinExplorer('test')?.transaction).toBe('https://mempool.space/testnet/tx/#{txid}');
    expect(bitcoinExplorer('regtest')).toBeNull();
    expect(evmExplorer(1)).toEqual({
      transaction: 'https://etherscan.io/tx/#{txid}',
      address: 'https://etherscan.io/address/#{address}',
    });
    expect(evmExplorer(11155111)?.transaction).toBe('https://sepolia.etherscan.io/tx/#{txid}');
    expect(evmExplorer(31337)).toBeNull();
    expect(tronExplorer('https://api.trongrid.io')).toEqual({
      transaction: 'https://tronscan.org/#/transaction/#{txid}',
      address: 'https://tronscan.org/#/address/#{address}',
    });
    expect(tronExplorer('https://nile.trongrid.io/')?.transaction).toBe(
      'https://nile.tronscan.org/#/transaction/#{txid}',
    );
    expect(tronExplorer('http://127.0.0.1:18190')).toBeNull();
  });

  it('stay null on the seeded simulated networks: no link to an explorer that does not know them', async () => {
    for (const currency of ['btc', 'eth', 'usdt', 'trx']) {
      for (const n of await networksOf(currency)) {
        expect(n.explorer_transaction, n.blockchain_key).toBeNull();
        expect(n.explorer_address, n.blockchain_key).toBeNull();
      }
    }
    expect(t.deps.wallet.chains.get('tron-sim')?.explorerTransaction).toBeNull();
    expect(t.deps.wallet.chains.get('btc-sim')?.explorerTransaction).toBeNull();
  });

  it("fill in a mainnet node's explorer when the network has none, and keep an operator's own", async () => {
    const db = t.db.pool;
    await db.query(
      `insert into blockchains (key, name, client, min_confirmations, explorer_transaction, explorer_address)
       values ('btc-main', 'Bitcoin', 'bitcoin', 3, null, null),
              ('btc-own', 'Bitcoin (own explorer)', 'bitcoin', 3, 'https://explorer.example/tx/#{txid}', null)`,
    );
    await db.query(
      `insert into currency_networks (currency_id, blockchain_key, protocol, min_deposit_amount, min_withdraw_amount,
         withdraw_fee) values ('btc', 'btc-main', 'BTC', 0.0001, 0.001, 0.0005), ('btc', 'btc-own', 'BTC', 0.0001, 0.001, 0.0005)`,
    );
    const chain = (key: string) =>
      createBitcoinChain({ key, rpcUrl: nodeUrl, db, signer: NO_SIGNER, isOurs: async () => new Set() });
    expect((await chain('btc-main')).explorer?.transaction).toBe('https://mempool.space/tx/#{txid}');
    const registry = await ChainRegistry.load(db, async (key) =>
      key === 'btc-main' || key === 'btc-own' ? { chain: await chain(key), dev: null } : null,
    );
    try {
      expect(registry.get('btc-main')?.explorerTransaction).toBe('https://mempool.space/tx/#{txid}');
      expect(registry.get('btc-own')?.explorerTransaction).toBe('https://explorer.example/tx/#{txid}');
      const networks = await networksOf('btc');
      expect(networks.find((n) => n.blockchain_key === 'btc-main')).toMatchObject({
        explorer_transaction: 'https://mempool.space/tx/#{txid}',
        explorer_address: 'https://mempool.space/address/#{address}',
      });
      expect(networks.find((n) => n.blockchain_key === 'btc-own')).toMatchObject({
        explorer_transaction: 'https://explorer.example/tx/#{txid}',
        explorer_address: null,
      });
    } finally {
      registry.stop();
      await db.query(`delete from currency_networks where blockchain_key in ('btc-main', 'btc-own')`);
      await db.query(`delete from blockchains where key in ('btc-main', 'btc-own')`);
    }
  });
});
