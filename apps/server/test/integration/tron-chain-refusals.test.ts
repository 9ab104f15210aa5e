import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTronSimulator } from '@exchange/chain-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import { BroadcastUnknownError } from '../../src/adapters/chains/port.ts';
import type { SignerPort } from '../../src/adapters/chains/signing.ts';
import { createTronChain, TronRefusedError } from '../../src/adapters/chains/tron/adapter.ts';
import { CURRENCIES, external, hexText, tronFixture, USDT } from '../support/tron-fixture.ts';

/** The TRON adapter and simulator refusing what a node refuses, with the node's own errors. */
const f = tronFixture();

describe('TRON chain adapter: refusals, failures and reorgs', () => {
  beforeAll(async () => {
    // One transaction signed and mined (to broadcast again), and USDT in the hot wallet (to spend badly).
    await f.chain.send({
      purpose: { kind: 'withdrawal', withdrawalId: 1 },
      from: f.hot,
      to: external(),
      currency: 'trx',
      amount: 1_000_000n,
    });
    await f.dev.faucet(f.hot.address, 'usdt', 50_000_000n);
    await f.dev.mine();
  });

  it('is refused with the node errors: bad signature, duplicate, balance, missing API key', async () => {
    const dep = f.deposit(2);
    await f.dev.faucet(dep.address, 'trx', 3_000_000n);
    await f.dev.mine();

    // A tampered signature: SIGERROR, a plain refusal (not an unknown outcome).
    const tampering: SignerPort = {
      ...f.signer,
      async signTron(request) {
        const { signature } = await f.signer.signTron(request);
        const flipped = (Number.parseInt(signature.slice(60, 62), 16) ^ 1).toString(16).padStart(2, '0');
        return { signature: signature.slice(0, 60) + flipped + signature.slice(62) };
      },
    };
    const bad = createTronChain({
      key: 'tron-sim',
      apiUrl: f.sim.url,
      signer: tampering,
      usdtContract: USDT,
      currencies: CURRENCIES,
    });
    const refused = bad.send({
      purpose: { kind: 'sweep' },
      from: dep,
      to: f.hot.address,
      currency: 'trx',
      amount: 1_000_000n,
    });
    await expect(refused).rejects.toBeInstanceOf(TronRefusedError);
    await expect(refused).rejects.toMatchObject({ code: 'SIGERROR' });
    await expect(refused).rejects.not.toBeInstanceOf(BroadcastUnknownError);

    // The same signed transaction twice: DUP_TRANSACTION_ERROR from the node; the adapter treats it as sent.
    const first = f.signed[0]!;
    const held = await f.node('/wallet/gettransactionbyid', { value: first.txID });
    const dup = await f.node('/wallet/broadcasttransaction', {
      raw_data: held.raw_data,
      signature: [first.signature],
    });
    expect(dup.code).toBe('DUP_TRANSACTION_ERROR');
    expect(hexText(dup.message)).toBe('Dup transaction.');

    // Two spends built against the same balance: the second one broadcast cannot be covered.
    const to = external();
    const txs: Record<string, unknown>[] = [];
    for (const amount of [2_000_000, 2_000_001]) {
      const built = await f.node('/wallet/createtransaction', {
        owner_address: dep.address,
        to_address: f.hot.address,
        amount,
        visible: true,
      });
      const { signature } = await f.signer.signTron({
        network: 'tron-sim',
        purpose: { kind: 'sweep' },
        transaction: { txID: String(built.txID), raw_data_hex: String(built.raw_data_hex) },
        key: dep,
      });
      txs.push({ ...built, signature: [signature] });
    }
    expect(await f.node('/wallet/broadcasttransaction', txs[0]!)).toMatchObject({
      result: true,
      txid: txs[0]!.txID,
    });
    const second = await f.node('/wallet/broadcasttransaction', txs[1]!);
    expect(second.code).toBe('CONTRACT_VALIDATE_ERROR');
    // Broadcast with `visible: true` (as built): the message is text, not hex.
    expect(second.message).toBe(
      'Contract validate error : Validate TransferContract error, balance is not sufficient.',
    );
    // The adapter: the node refuses to build a spend beyond the balance; nothing is signed.
    const before = f.signed.length;
    await expect(
      f.chain.send({ purpose: { kind: 'sweep' }, from: dep, to, currency: 'trx', amount: 50_000_000n }),
    ).rejects.toThrow(/balance is not sufficient/);
    expect(f.signed.length).toBe(before);
    await f.dev.mine();

    // A node that wants an API key refuses requests without it.
    const keyed = await startTronSimulator({
      pool: f.db.pool,
      usdtContract: USDT,
      apiKey: 'test-key',
      chainKey: 'tron-keyed',
    });
    try {
      const without = createTronChain({
        key: 'tron-keyed',
        apiUrl: keyed.url,
        signer: f.signer,
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
        signer: f.signer,
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
      apiUrl: f.sim.url,
      signer: f.signer,
      usdtContract: USDT,
      currencies: CURRENCIES,
      feeLimitSun: 1_000_000n,
    });
    const trx = await f.chain.balance(f.hot.address, 'trx');
    const usdt = await f.chain.balance(f.hot.address, 'usdt');
    const { txid } = await stingy.send({
      purpose: { kind: 'withdrawal', withdrawalId: 9 },
      from: f.hot,
      to: external(),
      currency: 'usdt',
      amount: 1_000_000n,
    });
    const height = await f.dev.mine();
    expect(await f.chain.transaction(txid)).toEqual({ state: 'failed', height, confirmations: 1 });
    const failed = await f.info(txid);
    expect(failed.result).toBe('FAILED');
    expect(failed.receipt).toMatchObject({ result: 'OUT_OF_ENERGY', energy_fee: 1_000_000 });
    const ret = (await f.node('/wallet/gettransactionbyid', { value: txid })).ret as {
      contractRet: string;
    }[];
    expect(ret[0]?.contractRet).toBe('OUT_OF_ENERGY');
    expect((await f.chain.block(height))?.transfers).toEqual([]);
    expect(await f.chain.balance(f.hot.address, 'usdt')).toBe(usdt);
    expect(await f.chain.balance(f.hot.address, 'trx')).toBe(trx - BigInt(Number(failed.fee)));
    expect(BigInt(Number(failed.fee))).toBeGreaterThanOrEqual(1_000_000n);
  });

  it('loses a deposit in a reorg: the height gets another block without it', async () => {
    const dep = f.deposit(3);
    const txid = await f.dev.faucet(dep.address, 'trx', 7_000_000n);
    const height = await f.dev.mine();
    const before = await f.chain.block(height);
    expect(before?.transfers.map((t) => t.txid)).toEqual([txid]);
    expect(await f.dev.reorg(1, false)).toBe(height);
    const after = await f.chain.block(height);
    expect(after?.hash).not.toBe(before?.hash);
    expect(after?.parentHash).toBe(before?.parentHash);
    expect(after?.transfers).toEqual([]);
    expect(await f.chain.balance(dep.address, 'trx')).toBe(0n);
    expect((await f.chain.transaction(txid)).state).toBe('unknown');

    // Kept transactions go back to the pool and into the replacing block.
    const kept = await f.dev.faucet(dep.address, 'trx', 8_000_000n);
    const keptAt = await f.dev.mine();
    const original = await f.chain.block(keptAt);
    expect(await f.dev.reorg(2, true)).toBe(keptAt);
    const moved = await f.chain.block(keptAt - 1);
    expect(moved?.transfers.map((t) => t.txid)).toEqual([kept]);
    expect((await f.chain.block(keptAt))?.hash).not.toBe(original?.hash);
    expect(await f.chain.transaction(kept)).toEqual({
      state: 'confirmed',
      height: keptAt - 1,
      confirmations: 2,
    });
    expect(await f.chain.balance(dep.address, 'trx')).toBe(8_000_000n);
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
        await fetch(f.sim.url + req.url, { method: 'POST', body });
        req.socket.destroy();
        return;
      }
      if (alter && req.url === '/wallet/createtransaction') {
        const request = JSON.parse(body) as { amount: number };
        body = JSON.stringify({ ...request, amount: request.amount + 1 });
      }
      const answer = await fetch(f.sim.url + (req.url ?? '/'), { method: 'POST', body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
    f.servers.push(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = createTronChain({
      key: 'tron-sim',
      apiUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      signer: f.signer,
      usdtContract: USDT,
      currencies: CURRENCIES,
    });
    const before = f.signed.length;
    await expect(
      proxied.send({
        purpose: { kind: 'withdrawal', withdrawalId: 7 },
        from: f.hot,
        to: external(),
        currency: 'trx',
        amount: 1_000_000n,
      }),
    ).rejects.toThrow(/did not ask for \(amount 1000001\)/);
    expect(f.signed.length).toBe(before);

    // Built honestly, but the answer to the broadcast is lost: the outcome is unknown, and in fact it went through.
    alter = false;
    const lost = proxied.send({
      purpose: { kind: 'withdrawal', withdrawalId: 8 },
      from: f.hot,
      to: external(),
      currency: 'trx',
      amount: 1_000_000n,
    });
    await expect(lost).rejects.toBeInstanceOf(BroadcastUnknownError);
    const txid = f.signed.at(-1)?.txID ?? '';
    await expect(lost).rejects.toThrow(txid);
    expect((await f.chain.transaction(txid)).state).toBe('pending');
  });
});
