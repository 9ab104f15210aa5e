import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as ecc from '@bitcoinerlab/secp256k1';
import { type BitcoinSimulator, startBitcoinSimulator } from '@exchange/chain-sim';
import { toUnits } from '@exchange/shared';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import * as bitcoin from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBitcoinChain } from '../../src/adapters/chains/bitcoin/adapter.ts';
import { type BitcoinDevTools, createBitcoinDevTools } from '../../src/adapters/chains/bitcoin/dev-tools.ts';
import { BroadcastUnknownError, type ChainPort, type KeyScheme } from '../../src/adapters/chains/port.ts';
import type { WalletKey } from '../../src/adapters/chains/signing.ts';
import { publicKeyAt } from '../../src/modules/custody/hd.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { TEST_MNEMONIC, uncheckedSigner } from '../support/unchecked-signer.ts';

const SCHEME: KeyScheme = { purpose: 84, coinType: 1, nativeCurrency: 'btc' };
const REGTEST = bitcoin.networks.regtest;

let db: TestDatabase;
let sim: BitcoinSimulator;
let chain: ChainPort;
let dev: BitcoinDevTools;
const ours = new Set<string>();
const { signer, xpub } = uncheckedSigner(() => SCHEME);
let deposit0: WalletKey;
let deposit1: WalletKey;
let hot: WalletKey;
/** A key outside our wallet, for the withdrawal's recipient. */
const outsider = bitcoin.payments.p2wpkh({
  pubkey: secp256k1.getPublicKey(new Uint8Array(32).fill(7)),
  network: REGTEST,
});

/** A JSON-RPC 1.0 call straight to the simulator: HTTP status and body. */
async function rawCall(method: string, params: unknown[], auth = true) {
  const url = new URL(sim.url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth)
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const response = await fetch(sim.endpoint, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: text
      ? (JSON.parse(text) as { result: unknown; error: { code: number; message: string } | null })
      : null,
  };
}

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const { body } = await rawCall(method, params);
  if (body?.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body?.result as T;
}

/** Verifies every input's BIP143 signature with bitcoinjs-lib and @bitcoinerlab/secp256k1; returns the fee. */
async function verifyIndependently(txid: string): Promise<bigint> {
  const tx = bitcoin.Transaction.fromHex(await rpc<string>('getrawtransaction', [txid, false]));
  expect(tx.getId()).toBe(txid);
  let valueIn = 0n;
  for (const [i, input] of tx.ins.entries()) {
    const prevTxid = Buffer.from(input.hash).reverse().toString('hex');
    // Confirmed and spent only in the mempool: gettxout without the mempool still shows it.
    const { body, text } = await rawCall('gettxout', [prevTxid, input.index, false]);
    const prev = body?.result as { scriptPubKey: { hex: string } };
    // The amount read from the JSON text, exactly.
    const value = toUnits(/"value":\s*([0-9.]+)/.exec(text)?.[1] ?? 'x', 8);
    valueIn += value;
    const [sig, pubkey] = input.witness as [Uint8Array, Uint8Array];
    const payment = bitcoin.payments.p2wpkh({ pubkey, network: REGTEST });
    expect(Buffer.from(payment.output as Uint8Array).toString('hex')).toBe(prev.scriptPubKey.hex);
    const { signature, hashType } = bitcoin.script.signature.decode(sig);
    const scriptCode = bitcoin.payments.p2pkh({ hash: payment.hash }).output as Uint8Array;
    const digest = tx.hashForWitnessV0(i, scriptCode, value, hashType);
    expect(ecc.verify(digest, pubkey, signature)).toBe(true);
  }
  return valueIn - tx.outs.reduce((sum, o) => sum + o.value, 0n);
}

/** The hot wallet's private key, for transactions built by hand. */
function hotPrivateKey(): Uint8Array {
  const node = HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_MNEMONIC)).derive("m/84'/1'/1'/0/0");
  return node.privateKey as Uint8Array;
}

/** A transaction spending `prevout` (of the hot wallet) to the outsider, signed by hand with bitcoinjs + noble. */
function spendByHand(
  prevout: { txid: string; vout: number; value: bigint },
  pay: bigint,
): bitcoin.Transaction {
  const key = hotPrivateKey();
  const pubkey = secp256k1.getPublicKey(key);
  const tx = new bitcoin.Transaction();
  tx.version = 2;
  tx.addInput(Buffer.from(prevout.txid, 'hex').reverse(), prevout.vout, 0xfffffffd);
  tx.addOutput(outsider.output as Uint8Array, pay);
  const scriptCode = bitcoin.payments.p2pkh({ pubkey }).output as Uint8Array;
  const digest = tx.hashForWitnessV0(0, scriptCode, prevout.value, bitcoin.Transaction.SIGHASH_ALL);
  const compact = secp256k1.sign(digest, key, { prehash: false });
  tx.setWitness(0, [bitcoin.script.signature.encode(compact, bitcoin.Transaction.SIGHASH_ALL), pubkey]);
  return tx;
}

async function scan(height: number) {
  const block = await chain.block(height);
  if (!block) throw new Error(`no block ${height}`);
  return block;
}

beforeAll(async () => {
  db = await createTestDatabase();
  sim = await startBitcoinSimulator({ pool: db.pool, rpcUser: 'exchange', rpcPassword: 's3cret/pass' });
  chain = await createBitcoinChain({
    key: 'btc-regtest',
    rpcUrl: sim.url,
    db: db.pool,
    signer,
    isOurs: async (addresses) => new Set(addresses.filter((a) => ours.has(a))),
  });
  dev = createBitcoinDevTools(sim.url);
  const depositXpub = xpub(SCHEME, 0);
  deposit0 = { account: 0, index: 0, address: chain.addressOf(publicKeyAt(depositXpub, 0)) };
  deposit1 = { account: 0, index: 1, address: chain.addressOf(publicKeyAt(depositXpub, 1)) };
  hot = { account: 1, index: 0, address: chain.addressOf(publicKeyAt(xpub(SCHEME, 1), 0)) };
  for (const key of [deposit0, deposit1, hot]) ours.add(key.address);
});

afterAll(async () => {
  await sim?.stop();
  await db?.drop();
});

describe('the Bitcoin adapter against the Core JSON-RPC simulator', () => {
  it('follows the node: regtest keys and addresses, Core envelopes and errors', async () => {
    expect(chain.keyScheme).toEqual(SCHEME);
    expect(hot.address.startsWith('bcrt1q')).toBe(true);
    expect(chain.normalizeAddress(outsider.address as string)).toBe(outsider.address);
    expect(chain.normalizeAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBeNull();
    expect((await rawCall('getblockcount', [], false)).status).toBe(401);
    const missing = await rawCall('nosuchmethod', []);
    expect(missing.status).toBe(404);
    expect(missing.body?.error).toEqual({ code: -32601, message: 'Method not found' });
    const outOfRange = await rawCall('getblockhash', [1000]);
    expect(outOfRange.status).toBe(500);
    expect(outOfRange.body?.error).toEqual({ code: -8, message: 'Block height out of range' });
    expect(await rpc('estimatesmartfee', [6])).toEqual({
      errors: ['Insufficient data or no feerate found'],
      blocks: 0,
    });
    expect(await chain.block(1000)).toBeNull();
  });

  it('sees faucet deposits in blocks, with confirmations and exact balances', async () => {
    const tx0 = await dev.faucet(deposit0.address, 'btc', 150_000_000n);
    const tx1 = await dev.faucet(deposit1.address, 'btc', 25_000_001n);
    const height = await dev.mine();
    expect(await chain.latestBlock()).toBe(height);
    const block = await scan(height);
    expect(block.transfers).toEqual(
      expect.arrayContaining([
        { txid: tx0, index: 0, currency: 'btc', to: deposit0.address, from: null, amount: 150_000_000n },
        { txid: tx1, index: 0, currency: 'btc', to: deposit1.address, from: null, amount: 25_000_001n },
      ]),
    );
    expect(block.parentHash).toBe((await scan(height - 1)).hash);
    expect(await chain.transaction(tx0)).toEqual({ state: 'confirmed', height, confirmations: 1 });
    await dev.mine(2);
    expect(await chain.transaction(tx0)).toEqual({ state: 'confirmed', height, confirmations: 3 });
    expect(await chain.balance(deposit0.address, 'btc')).toBe(150_000_000n);
    expect(await chain.balance(deposit1.address, 'btc')).toBe(25_000_001n);
  });

  let swept = 0n;
  let sweepTxid = '';
  it('sweeps two deposit addresses into the hot wallet in one transaction', async () => {
    const result = await chain.sweep({ from: [deposit0, deposit1], to: hot.address, currency: 'btc' });
    expect(result.transfers).toHaveLength(1);
    const [transfer] = result.transfers;
    if (!transfer) throw new Error('no transfer');
    expect(new Set(transfer.from)).toEqual(new Set([deposit0.address, deposit1.address]));
    const fee = await verifyIndependently(transfer.txid);
    expect(transfer.amount).toBe(175_000_001n - fee);
    expect(fee).toBeGreaterThan(0n);
    expect(await chain.transaction(transfer.txid)).toEqual({
      state: 'pending',
      height: null,
      confirmations: 0,
    });
    const height = await dev.mine();
    const block = await scan(height);
    expect(block.transfers).toContainEqual({
      txid: transfer.txid,
      index: 0,
      currency: 'btc',
      to: hot.address,
      from: null,
      amount: transfer.amount,
    });
    expect(await chain.transaction(transfer.txid)).toEqual({ state: 'confirmed', height, confirmations: 1 });
    expect(await chain.balance(deposit0.address, 'btc')).toBe(0n);
    expect(await chain.balance(deposit1.address, 'btc')).toBe(0n);
    expect(await chain.balance(hot.address, 'btc')).toBe(transfer.amount);
    swept = transfer.amount;
    sweepTxid = transfer.txid;
    // Nothing left to sweep: no transaction.
    expect(await chain.sweep({ from: [deposit0, deposit1], to: hot.address, currency: 'btc' })).toEqual({
      transfers: [],
    });
  });

  let change = { txid: '', vout: 1, value: 0n };
  it('sends a withdrawal with change; the node refuses a double spend and a tampered signature', async () => {
    const { txid } = await chain.send({
      purpose: { kind: 'withdrawal', withdrawalId: 1 },
      from: hot,
      to: outsider.address as string,
      currency: 'btc',
      amount: 40_000_000n,
    });
    const fee = await verifyIndependently(txid);
    const decoded = await rpc<{ vout: { scriptPubKey: { address: string } }[]; hex: string }>(
      'getrawtransaction',
      [txid, true],
    );
    expect(decoded.vout.map((o) => o.scriptPubKey.address)).toEqual([outsider.address, hot.address]);
    change = { txid, vout: 1, value: swept - 40_000_000n - fee };

    // A second spend of the swept output, built and signed by hand: a conflict with the mempool.
    const doubleSpend = spendByHand({ txid: sweepTxid, vout: 0, value: swept }, swept - 10_000n);
    const conflict = await rawCall('sendrawtransaction', [doubleSpend.toHex()]);
    expect(conflict.body?.error).toEqual({ code: -26, message: 'txn-mempool-conflict' });

    const height = await dev.mine();
    const block = await scan(height);
    expect(block.transfers).toEqual(
      expect.arrayContaining([
        { txid, index: 0, currency: 'btc', to: outsider.address, from: null, amount: 40_000_000n },
        { txid, index: 1, currency: 'btc', to: hot.address, from: null, amount: change.value },
      ]),
    );
    expect(await chain.balance(hot.address, 'btc')).toBe(change.value);
    expect(await chain.transaction(txid)).toEqual({ state: 'confirmed', height, confirmations: 1 });

    // Once mined, the same double spend is missing its input; the withdrawal itself is already in the chain.
    const missing = await rawCall('sendrawtransaction', [doubleSpend.toHex()]);
    expect(missing.body?.error).toEqual({ code: -25, message: 'bad-txns-inputs-missingorspent' });
    const again = await rawCall('sendrawtransaction', [decoded.hex]);
    expect(again.body?.error).toEqual({ code: -27, message: 'Transaction outputs already in utxo set' });

    // A valid spend of the change with one signature byte changed (still valid DER): the script fails.
    const honest = spendByHand(change, change.value - 10_000n);
    const witness = honest.ins[0]?.witness as Uint8Array[];
    const sig = Uint8Array.from(witness[0] as Uint8Array);
    sig[sig.length - 2] = (sig[sig.length - 2] as number) ^ 0x01;
    honest.setWitness(0, [sig, witness[1] as Uint8Array]);
    const tampered = await rawCall('sendrawtransaction', [honest.toHex()]);
    expect(tampered.body?.error?.code).toBe(-26);
    expect(tampered.body?.error?.message).toMatch(/^mandatory-script-verify-flag-failed \(/);
    expect(await chain.balance(hot.address, 'btc')).toBe(change.value);
  });

  it('drops a deposit a reorganisation takes away', async () => {
    const txid = await dev.faucet(deposit0.address, 'btc', 5_000_000n);
    const height = await dev.mine();
    const before = await scan(height);
    expect(before.transfers).toContainEqual({
      txid,
      index: 0,
      currency: 'btc',
      to: deposit0.address,
      from: null,
      amount: 5_000_000n,
    });
    expect(await chain.balance(deposit0.address, 'btc')).toBe(5_000_000n);
    expect(await dev.reorg(1, false)).toBe(height);
    const after = await scan(height);
    expect(after.hash).not.toBe(before.hash);
    expect(after.parentHash).toBe(before.parentHash);
    expect(after.transfers).toEqual([]);
    expect(await chain.transaction(txid)).toEqual({ state: 'unknown', height: null, confirmations: 0 });
    expect(await chain.balance(deposit0.address, 'btc')).toBe(0n);
  });

  it('reports an unknown outcome when the connection drops during the broadcast', async () => {
    const proxy = await startDroppingProxy(sim.endpoint);
    try {
      const url = new URL(sim.url);
      const through = await createBitcoinChain({
        key: 'btc-regtest',
        rpcUrl: `http://${url.username}:${url.password}@${proxy.host}/`,
        db: db.pool,
        signer,
        isOurs: async (addresses) => new Set(addresses.filter((a) => ours.has(a))),
      });
      const sending = through.send({
        purpose: { kind: 'withdrawal', withdrawalId: 2 },
        from: hot,
        to: outsider.address as string,
        currency: 'btc',
        amount: 1_000_000n,
      });
      await expect(sending).rejects.toBeInstanceOf(BroadcastUnknownError);
    } finally {
      await proxy.close();
    }
  });

  it('answers as Core does: JSON-RPC 2.0 and batches, no -txindex, relay fee, testmempoolaccept', async () => {
    const auth = new URL(sim.url);
    const post = (body: unknown) =>
      fetch(sim.endpoint, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${decodeURIComponent(auth.username)}:${decodeURIComponent(auth.password)}`).toString('base64')}`,
        },
        body: JSON.stringify(body),
      });
    const v2 = await post({ jsonrpc: '2.0', id: 7, method: 'nosuchmethod' });
    expect(v2.status).toBe(200);
    expect(await v2.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32601, message: 'Method not found' },
      id: 7,
    });
    const batch = await post([
      { id: 1, method: 'getblockcount' },
      { jsonrpc: '2.0', id: 2, method: 'getblockhash', params: [0] },
    ]);
    expect(batch.status).toBe(200);
    const [count, genesis] = (await batch.json()) as [{ result: number; error: null }, { result: string }];
    expect(count.result).toBe(await chain.latestBlock());
    expect(genesis.result).toMatch(/^[0-9a-f]{64}$/);

    // Without -txindex a confirmed transaction is found only with its block.
    const lost = await rawCall('getrawtransaction', [change.txid, true]);
    expect(lost.body?.error?.code).toBe(-5);
    expect(lost.body?.error?.message).toMatch(
      /^No such mempool transaction\. Use -txindex or provide a block hash/,
    );
    const { rows } = await db.pool.query('select block_hash from btc_transactions where txid = $1', [
      change.txid,
    ]);
    const found = await rpc<{ in_active_chain: boolean; txid: string }>('getrawtransaction', [
      change.txid,
      true,
      rows[0].block_hash,
    ]);
    expect(found).toMatchObject({ in_active_chain: true, txid: change.txid });

    // The change is still unspent on the node (the dropped broadcast never reached it).
    const free = spendByHand(change, change.value);
    expect((await rawCall('sendrawtransaction', [free.toHex()])).body?.error).toEqual({
      code: -26,
      message: `min relay fee not met, 0 < ${free.virtualSize()}`,
    });
    const paying = spendByHand(change, change.value - 1_000n);
    const [verdict] = await rpc<{ allowed: boolean; vsize: number; txid: string }[]>('testmempoolaccept', [
      [paying.toHex()],
    ]);
    expect(verdict).toMatchObject({ allowed: true, vsize: paying.virtualSize(), txid: paying.getId() });
  });
});

/** Forwards JSON-RPC to `target`, except sendrawtransaction: its socket is destroyed once the request is read. */
async function startDroppingProxy(target: string) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if ((JSON.parse(body) as { method?: string }).method === 'sendrawtransaction') {
      req.socket.destroy();
      return;
    }
    const answer = await fetch(target, {
      method: 'POST',
      headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
      body,
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
