import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTronSimulator, type TronSimulator } from '@exchange/chain-sim';
import { encodeTronAddress } from '@exchange/shared';
import { keccak256, randomBytes, Signature, SigningKey, sha256 } from 'ethers';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainPort, KeyScheme } from '../../src/adapters/chains/port.ts';
import { BroadcastUnknownError } from '../../src/adapters/chains/port.ts';
import type { SignerPort, WalletKey } from '../../src/adapters/chains/signing.ts';
import { createTronChain, TronRefusedError } from '../../src/adapters/chains/tron/adapter.ts';
import { createTronDevTools, type TronDevTools } from '../../src/adapters/chains/tron/dev-tools.ts';
import { publicKeyAt } from '../../src/modules/custody/hd.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { uncheckedSigner } from '../support/unchecked-signer.ts';

const SCHEME: KeyScheme = { purpose: 44, coinType: 195, nativeCurrency: 'trx' };
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CURRENCIES = { trx: 6, usdt: 6 };
/** Mainnet fees the simulator charges (TRON resource model): sun per energy and per byte, account creation. */
const ENERGY_FEE = 100n;
const NEW_ACCOUNT_FEE = 1_000_000n + 100_000n;
const NEW_HOLDER_ENERGY = 130_285n;
const HOLDER_ENERGY = 64_285n;

/**
 * TRON's protocol messages (core/Tron.proto: Transaction.raw, Transaction.Contract; google.protobuf.Any;
 * core/contract/balance_contract.proto: TransferContract; smart_contract.proto: TriggerSmartContract), for
 * protobufjs to decode what we broadcast independently of the adapter's own decoder.
 */
const PROTO = `
syntax = "proto3";
package protocol;
message Any { string type_url = 1; bytes value = 2; }
message Contract { int32 type = 1; Any parameter = 2; bytes provider = 3; bytes ContractName = 4; int32 Permission_id = 5; }
message TransactionRaw {
  bytes ref_block_bytes = 1; int64 ref_block_num = 3; bytes ref_block_hash = 4; int64 expiration = 8;
  bytes data = 10; repeated Contract contract = 11; bytes scripts = 12; int64 timestamp = 14; int64 fee_limit = 18;
}
message TransferContract { bytes owner_address = 1; bytes to_address = 2; int64 amount = 3; }
message TriggerSmartContract {
  bytes owner_address = 1; bytes contract_address = 2; int64 call_value = 3; bytes data = 4;
  int64 call_token_value = 5; int64 token_id = 6;
}
`;
const root = protobuf.parse(PROTO, { keepCase: true }).root;
const RawType = root.lookupType('protocol.TransactionRaw');
const TransferType = root.lookupType('protocol.TransferContract');
const TriggerType = root.lookupType('protocol.TriggerSmartContract');

interface Signed {
  txID: string;
  raw_data_hex: string;
  signature: string;
  key: WalletKey;
}

let db: TestDatabase;
let sim: TronSimulator;
let dev: TronDevTools;
let chain: ChainPort;
let signer: SignerPort;
let deposit: (index: number) => WalletKey;
let hot: WalletKey;
const signed: Signed[] = [];
const servers: http.Server[] = [];

const tronAddress = (bytes: Uint8Array) => encodeTronAddress(bytes.subarray(1));
const external = () => {
  const key = new SigningKey(randomBytes(32));
  return encodeTronAddress(Buffer.from(keccak256(`0x${key.publicKey.slice(4)}`).slice(-40), 'hex'));
};

async function node(path: string, body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const response = await fetch(sim.url + path, { method: 'POST', body: JSON.stringify(body) });
  return (await response.json()) as Record<string, unknown>;
}

const info = async (txid: string) => node('/wallet/gettransactioninfobyid', { value: txid });
const hexText = (hex: unknown) => Buffer.from(String(hex), 'hex').toString('utf8');

beforeAll(async () => {
  db = await createTestDatabase();
  sim = await startTronSimulator({ pool: db.pool, usdtContract: USDT, blockMs: 0 });
  dev = createTronDevTools({ apiUrl: sim.url });
  const unchecked = uncheckedSigner(() => SCHEME);
  // Records everything signed, to check it afterwards with libraries of its own.
  signer = {
    ...unchecked.signer,
    async signTron(request) {
      const result = await unchecked.signer.signTron(request);
      signed.push({ ...request.transaction, signature: result.signature, key: request.key });
      return result;
    },
  };
  chain = createTronChain({
    key: 'tron-sim',
    apiUrl: sim.url,
    signer,
    usdtContract: USDT,
    currencies: CURRENCIES,
  });
  const deposits = unchecked.xpub(SCHEME, 0);
  deposit = (index) => ({ account: 0, index, address: chain.addressOf(publicKeyAt(deposits, index)) });
  hot = { account: 1, index: 0, address: chain.addressOf(publicKeyAt(unchecked.xpub(SCHEME, 1), 0)) };
  // The hot wallet's account exists before anything is swept to it.
  await dev.faucet(hot.address, 'trx', 100_000_000n);
  await dev.mine();
});

afterAll(async () => {
  for (const server of servers) server.close();
  await sim?.stop();
  await db?.drop();
});

describe('TRON chain adapter over the java-tron HTTP API simulator', () => {
  it('sees a TRX deposit in its block and sweeps it whole while free bandwidth lasts', async () => {
    const dep = deposit(0);
    const txid = await dev.faucet(dep.address, 'trx', 5_000_000n);
    const height = await dev.mine();
    const block = await chain.block(height);
    expect(block?.transfers).toContainEqual({
      txid,
      index: -1,
      currency: 'trx',
      to: dep.address,
      from: sim.faucetAddress,
      amount: 5_000_000n,
    });
    expect(block?.parentHash).toBe((await chain.block(height - 1))?.hash);
    expect(await chain.latestBlock()).toBe(height);
    expect(await chain.balance(dep.address, 'trx')).toBe(5_000_000n);

    const hotBefore = await chain.balance(hot.address, 'trx');
    const swept = await chain.sweep({ from: [dep], to: hot.address, currency: 'trx' });
    expect(swept.transfers).toHaveLength(1);
    expect(swept.transfers[0]?.amount).toBe(5_000_000n);
    expect((await chain.transaction(swept.transfers[0]?.txid ?? '')).state).toBe('pending');
    const mined = await dev.mine(2);
    const status = await chain.transaction(swept.transfers[0]?.txid ?? '');
    expect(status).toEqual({ state: 'confirmed', height: mined - 1, confirmations: 2 });
    expect(await chain.balance(dep.address, 'trx')).toBe(0n);
    expect(await chain.balance(hot.address, 'trx')).toBe(hotBefore + 5_000_000n);
    // A transfer within the free daily bandwidth burns nothing: the receipt says bandwidth was used.
    const receipt = (await info(swept.transfers[0]?.txid ?? '')).receipt as Record<string, number>;
    expect(receipt.net_usage).toBeGreaterThan(200);
    expect(receipt.net_fee).toBeUndefined();
  });

  it('takes a USDT deposit, tops up gas from the hot wallet, sweeps the tokens, and withdraws', async () => {
    const dep = deposit(1);
    const txid = await dev.faucet(dep.address, 'usdt', 250_000_000n);
    const height = await dev.mine();
    expect((await chain.block(height))?.transfers).toEqual([
      { txid, index: 0, currency: 'usdt', to: dep.address, from: sim.faucetAddress, amount: 250_000_000n },
    ]);
    expect(await chain.balance(dep.address, 'usdt')).toBe(250_000_000n);

    // Gas: the TRX one TRC-20 transfer burns (energy to a new holder at 100 sun, 345 bytes of bandwidth).
    const fee = await chain.sweepFee('usdt');
    expect(fee).toBe(NEW_HOLDER_ENERGY * ENERGY_FEE + 345n * 1_000n);
    expect(await chain.sweepFee('trx')).toBe(0n);
    const hotTrx = await chain.balance(hot.address, 'trx');
    await chain.send({
      purpose: { kind: 'gas', depositIndex: 1 },
      from: hot,
      to: dep.address,
      currency: 'trx',
      amount: fee,
    });
    await dev.mine();
    // The deposit address had no account (a token credit does not create one): the hot wallet paid for it.
    expect(await chain.balance(hot.address, 'trx')).toBe(hotTrx - fee - NEW_ACCOUNT_FEE);
    expect(await chain.balance(dep.address, 'trx')).toBe(fee);

    const swept = await chain.sweep({ from: [dep], to: hot.address, currency: 'usdt' });
    expect(swept.transfers).toEqual([
      { txid: expect.any(String), from: [dep.address], amount: 250_000_000n },
    ]);
    const sweptAt = await dev.mine();
    const sweepTxid = swept.transfers[0]?.txid ?? '';
    expect((await chain.block(sweptAt))?.transfers).toEqual([
      {
        txid: sweepTxid,
        index: 0,
        currency: 'usdt',
        to: hot.address,
        from: dep.address,
        amount: 250_000_000n,
      },
    ]);
    const sweepInfo = await info(sweepTxid);
    expect(sweepInfo.receipt).toMatchObject({
      energy_usage_total: Number(NEW_HOLDER_ENERGY),
      energy_fee: Number(NEW_HOLDER_ENERGY * ENERGY_FEE),
      result: 'SUCCESS',
    });
    expect(await chain.balance(dep.address, 'usdt')).toBe(0n);
    expect(await chain.balance(hot.address, 'usdt')).toBe(250_000_000n);
    // Energy burnt; the bandwidth came out of the free allowance.
    expect(await chain.balance(dep.address, 'trx')).toBe(fee - NEW_HOLDER_ENERGY * ENERGY_FEE);

    // A withdrawal to an external address, in USDT (a new holder) and in TRX (a new account).
    const customer = external();
    const hotBefore = await chain.balance(hot.address, 'trx');
    const usdtOut = await chain.send({
      purpose: { kind: 'withdrawal', withdrawalId: 1 },
      from: hot,
      to: customer,
      currency: 'usdt',
      amount: 100_000_000n,
    });
    const trxOut = await chain.send({
      purpose: { kind: 'withdrawal', withdrawalId: 2 },
      from: hot,
      to: customer,
      currency: 'trx',
      amount: 2_000_000n,
    });
    const outAt = await dev.mine();
    const transfers = (await chain.block(outAt))?.transfers;
    expect(transfers).toContainEqual({
      txid: usdtOut.txid,
      index: 0,
      currency: 'usdt',
      to: customer,
      from: hot.address,
      amount: 100_000_000n,
    });
    expect(transfers).toContainEqual({
      txid: trxOut.txid,
      index: -1,
      currency: 'trx',
      to: customer,
      from: hot.address,
      amount: 2_000_000n,
    });
    const usdtFee = BigInt(Number((await info(usdtOut.txid)).fee));
    expect(usdtFee).toBe(NEW_HOLDER_ENERGY * ENERGY_FEE);
    // A token credit creates no account: the TRX transfer pays for the customer's.
    expect(await chain.balance(hot.address, 'trx')).toBe(hotBefore - usdtFee - 2_000_000n - NEW_ACCOUNT_FEE);
    expect(await chain.balance(hot.address, 'usdt')).toBe(150_000_000n);
    expect(await chain.balance(customer, 'usdt')).toBe(100_000_000n);
    expect(await chain.balance(customer, 'trx')).toBe(2_000_000n);

    // A second USDT withdrawal to the same (now holding) address costs the lower energy.
    const again = await chain.send({
      purpose: { kind: 'withdrawal', withdrawalId: 3 },
      from: hot,
      to: customer,
      currency: 'usdt',
      amount: 1_000_000n,
    });
    await dev.mine();
    expect((await info(again.txid)).receipt).toMatchObject({ energy_usage_total: Number(HOLDER_ENERGY) });
  });

  it('broadcast only what protobufjs decodes to the request, signed by the owner (ethers recovers it)', async () => {
    expect(signed.length).toBeGreaterThanOrEqual(5);
    for (const tx of signed) {
      const bytes = Buffer.from(tx.raw_data_hex, 'hex');
      expect(sha256(bytes).slice(2)).toBe(tx.txID);
      const raw = RawType.toObject(RawType.decode(bytes), { longs: String }) as {
        contract: { type: number; parameter: { type_url: string; value: Uint8Array } }[];
        expiration: string;
        fee_limit?: string;
      };
      expect(raw.contract).toHaveLength(1);
      const contract = raw.contract[0]!;
      let owner: string;
      if (contract.type === 1) {
        expect(contract.parameter.type_url).toBe('type.googleapis.com/protocol.TransferContract');
        const value = TransferType.toObject(TransferType.decode(contract.parameter.value), { longs: String });
        owner = tronAddress(value.owner_address as Uint8Array);
        expect(BigInt(value.amount as string)).toBeGreaterThan(0n);
      } else {
        expect(contract.type).toBe(31);
        const value = TriggerType.toObject(TriggerType.decode(contract.parameter.value), { longs: String });
        owner = tronAddress(value.owner_address as Uint8Array);
        expect(tronAddress(value.contract_address as Uint8Array)).toBe(USDT);
        expect(
          Buffer.from(value.data as Uint8Array)
            .toString('hex')
            .slice(0, 8),
        ).toBe('a9059cbb');
        expect(BigInt(raw.fee_limit ?? '0')).toBeGreaterThan(0n);
      }
      expect(owner).toBe(tx.key.address);
      // The signature (r ‖ s ‖ v) recovers to the owner's key.
      const sig = Signature.from({
        r: `0x${tx.signature.slice(0, 64)}`,
        s: `0x${tx.signature.slice(64, 128)}`,
        v: Number.parseInt(tx.signature.slice(128), 16),
      });
      const publicKey = SigningKey.recoverPublicKey(`0x${tx.txID}`, sig);
      const recovered = encodeTronAddress(
        Buffer.from(keccak256(`0x${publicKey.slice(4)}`).slice(-40), 'hex'),
      );
      expect(recovered).toBe(owner);
      // And it is what the node holds, byte for byte.
      const held = await node('/wallet/gettransactionbyid', { value: tx.txID });
      if (held.txID) expect(held.raw_data_hex).toBe(tx.raw_data_hex);
    }
  });

  it('is refused with the node errors: bad signature, duplicate, balance, missing API key', async () => {
    const dep = deposit(2);
    await dev.faucet(dep.address, 'trx', 3_000_000n);
    await dev.mine();

    // A tampered signature: SIGERROR, a plain refusal (not an unknown outcome).
    const tampering: SignerPort = {
      ...signer,
      async signTron(request) {
        const { signature } = await signer.signTron(request);
        const flipped = (Number.parseInt(signature.slice(60, 62), 16) ^ 1).toString(16).padStart(2, '0');
        return { signature: signature.slice(0, 60) + flipped + signature.slice(62) };
      },
    };
    const bad = createTronChain({
      key: 'tron-sim',
      apiUrl: sim.url,
      signer: tampering,
      usdtContract: USDT,
      currencies: CURRENCIES,
    });
    const refused = bad.send({
      purpose: { kind: 'sweep' },
      from: dep,
      to: hot.address,
      currency: 'trx',
      amount: 1_000_000n,
    });
    await expect(refused).rejects.toBeInstanceOf(TronRefusedError);
    await expect(refused).rejects.toMatchObject({ code: 'SIGERROR' });
    await expect(refused).rejects.not.toBeInstanceOf(BroadcastUnknownError);

    // The same signed transaction twice: DUP_TRANSACTION_ERROR from the node; the adapter treats it as sent.
    const first = signed[0]!;
    const held = await node('/wallet/gettransactionbyid', { value: first.txID });
    const dup = await node('/wallet/broadcasttransaction', {
      raw_data: held.raw_data,
      signature: [first.signature],
    });
    expect(dup.code).toBe('DUP_TRANSACTION_ERROR');
    expect(hexText(dup.message)).toBe('Dup transaction.');

    // Two spends built against the same balance: the second one broadcast cannot be covered.
    const to = external();
    const txs: Record<string, unknown>[] = [];
    for (const amount of [2_000_000, 2_000_001]) {
      const built = await node('/wallet/createtransaction', {
        owner_address: dep.address,
        to_address: hot.address,
        amount,
        visible: true,
      });
      const { signature } = await signer.signTron({
        network: 'tron-sim',
        purpose: { kind: 'sweep' },
        transaction: { txID: String(built.txID), raw_data_hex: String(built.raw_data_hex) },
        key: dep,
      });
      txs.push({ ...built, signature: [signature] });
    }
    expect(await node('/wallet/broadcasttransaction', txs[0]!)).toMatchObject({
      result: true,
      txid: txs[0]!.txID,
    });
    const second = await node('/wallet/broadcasttransaction', txs[1]!);
    expect(second.code).toBe('CONTRACT_VALIDATE_ERROR');
    // Broadcast with `visible: true` (as built): the message is text, not hex.
    expect(second.message).toBe(
      'Contract validate error : Validate TransferContract error, balance is not sufficient.',
    );
    // The adapter: the node refuses to build a spend beyond the balance; nothing is signed.
    const before = signed.length;
    await expect(
      chain.send({ purpose: { kind: 'sweep' }, from: dep, to, currency: 'trx', amount: 50_000_000n }),
    ).rejects.toThrow(/balance is not sufficient/);
    expect(signed.length).toBe(before);
    await dev.mine();

    // A node that wants an API key refuses requests without it.
    const keyed = await startTronSimulator({
      pool: db.pool,
      usdtContract: USDT,
      apiKey: 'test-key',
      chainKey: 'tron-keyed',
    });
    try {
      const without = createTronChain({
        key: 'tron-keyed',
        apiUrl: keyed.url,
        signer,
        usdtContract: USDT,
        currencies: CURRENCIES,
      });
      await expect(without.latestBlock()).rejects.toThrow(/HTTP 401.*ApiKey/);
      await expect(
        without.send({ purpose: { kind: 'sweep' }, from: dep, to, currency: 'trx', amount: 1n }),
      ).rejects.toThrow(/HTTP 401/);
      const withKey = createTronChain({
        key: 'tron-keyed',
        apiUrl: keyed.url,
        apiKey: 'test-key',
        signer,
        usdtContract: USDT,
        currencies: CURRENCIES,
      });
      expect(await withKey.latestBlock()).toBe(0);
    } finally {
      await keyed.stop();
    }
  });

  it('reports a TRC-20 transfer whose fee_limit is too low as failed (OUT_OF_ENERGY), the fee burnt', async () => {
    const stingy = createTronChain({
      key: 'tron-sim',
      apiUrl: sim.url,
      signer,
      usdtContract: USDT,
      currencies: CURRENCIES,
      feeLimitSun: 1_000_000n,
    });
    const trx = await chain.balance(hot.address, 'trx');
    const usdt = await chain.balance(hot.address, 'usdt');
    const { txid } = await stingy.send({
      purpose: { kind: 'withdrawal', withdrawalId: 9 },
      from: hot,
      to: external(),
      currency: 'usdt',
      amount: 1_000_000n,
    });
    const height = await dev.mine();
    expect(await chain.transaction(txid)).toEqual({ state: 'failed', height, confirmations: 1 });
    const failed = await info(txid);
    expect(failed.result).toBe('FAILED');
    expect(failed.receipt).toMatchObject({ result: 'OUT_OF_ENERGY', energy_fee: 1_000_000 });
    const ret = (await node('/wallet/gettransactionbyid', { value: txid })).ret as { contractRet: string }[];
    expect(ret[0]?.contractRet).toBe('OUT_OF_ENERGY');
    expect((await chain.block(height))?.transfers).toEqual([]);
    expect(await chain.balance(hot.address, 'usdt')).toBe(usdt);
    expect(await chain.balance(hot.address, 'trx')).toBe(trx - BigInt(Number(failed.fee)));
    expect(BigInt(Number(failed.fee))).toBeGreaterThanOrEqual(1_000_000n);
  });

  it('loses a deposit in a reorg: the height gets another block without it', async () => {
    const dep = deposit(3);
    const txid = await dev.faucet(dep.address, 'trx', 7_000_000n);
    const height = await dev.mine();
    const before = await chain.block(height);
    expect(before?.transfers.map((t) => t.txid)).toEqual([txid]);
    expect(await dev.reorg(1, false)).toBe(height);
    const after = await chain.block(height);
    expect(after?.hash).not.toBe(before?.hash);
    expect(after?.parentHash).toBe(before?.parentHash);
    expect(after?.transfers).toEqual([]);
    expect(await chain.balance(dep.address, 'trx')).toBe(0n);
    expect((await chain.transaction(txid)).state).toBe('unknown');

    // Kept transactions go back to the pool and into the replacing block.
    const kept = await dev.faucet(dep.address, 'trx', 8_000_000n);
    const keptAt = await dev.mine();
    const original = await chain.block(keptAt);
    expect(await dev.reorg(2, true)).toBe(keptAt);
    const moved = await chain.block(keptAt - 1);
    expect(moved?.transfers.map((t) => t.txid)).toEqual([kept]);
    expect((await chain.block(keptAt))?.hash).not.toBe(original?.hash);
    expect(await chain.transaction(kept)).toEqual({
      state: 'confirmed',
      height: keptAt - 1,
      confirmations: 2,
    });
    expect(await chain.balance(dep.address, 'trx')).toBe(8_000_000n);
  });

  it('refuses to sign a transaction the node built differently from the request', async () => {
    // A node (here a proxy) that builds a transfer of one sun more than asked: a valid, consistent transaction.
    let alter = true;
    const proxy = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      let body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/wallet/broadcasttransaction') {
        // The connection drops after the node got the transaction: nobody knows whether it was taken.
        await fetch(sim.url + req.url, { method: 'POST', body });
        req.socket.destroy();
        return;
      }
      if (alter && req.url === '/wallet/createtransaction') {
        const request = JSON.parse(body) as { amount: number };
        body = JSON.stringify({ ...request, amount: request.amount + 1 });
      }
      const answer = await fetch(sim.url + (req.url ?? '/'), { method: 'POST', body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
    servers.push(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = createTronChain({
      key: 'tron-sim',
      apiUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      signer,
      usdtContract: USDT,
      currencies: CURRENCIES,
    });
    const before = signed.length;
    await expect(
      proxied.send({
        purpose: { kind: 'withdrawal', withdrawalId: 7 },
        from: hot,
        to: external(),
        currency: 'trx',
        amount: 1_000_000n,
      }),
    ).rejects.toThrow(/did not ask for \(amount 1000001\)/);
    expect(signed.length).toBe(before);

    // Built honestly, but the answer to the broadcast is lost: the outcome is unknown, and in fact it went through.
    alter = false;
    const lost = proxied.send({
      purpose: { kind: 'withdrawal', withdrawalId: 8 },
      from: hot,
      to: external(),
      currency: 'trx',
      amount: 1_000_000n,
    });
    await expect(lost).rejects.toBeInstanceOf(BroadcastUnknownError);
    const txid = signed.at(-1)?.txID ?? '';
    await expect(lost).rejects.toThrow(txid);
    expect((await chain.transaction(txid)).state).toBe('pending');
  });
});
