import { encodeTronAddress } from '@exchange/shared';
import { keccak256, Signature, SigningKey, sha256 } from 'ethers';
import { describe, expect, it } from 'vitest';
import {
  ENERGY_FEE,
  external,
  HOLDER_ENERGY,
  NEW_ACCOUNT_FEE,
  NEW_HOLDER_ENERGY,
  RawType,
  TransferType,
  TriggerType,
  tronAddress,
  tronFixture,
  USDT,
} from '../support/tron-fixture.ts';

/** The TRON adapter against the java-tron HTTP API simulator, over HTTP only: deposits, sweeps, withdrawals. */
const f = tronFixture();

describe('TRON chain adapter over the java-tron HTTP API simulator', () => {
  it('sees a TRX deposit in its block and sweeps it whole while free bandwidth lasts', async () => {
    const dep = f.deposit(0);
    const txid = await f.dev.faucet(dep.address, 'trx', 5_000_000n);
    const height = await f.dev.mine();
    const block = await f.chain.block(height);
    expect(block?.transfers).toContainEqual({
      txid,
      index: -1,
      currency: 'trx',
      to: dep.address,
      from: f.sim.faucetAddress,
      amount: 5_000_000n,
    });
    expect(block?.parentHash).toBe((await f.chain.block(height - 1))?.hash);
    expect(await f.chain.latestBlock()).toBe(height);
    expect(await f.chain.balance(dep.address, 'trx')).toBe(5_000_000n);

    const hotBefore = await f.chain.balance(f.hot.address, 'trx');
    const swept = await f.chain.sweep({ from: [dep], to: f.hot.address, currency: 'trx' });
    expect(swept.transfers).toHaveLength(1);
    expect(swept.transfers[0]?.amount).toBe(5_000_000n);
    expect((await f.chain.transaction(swept.transfers[0]?.txid ?? '')).state).toBe('pending');
    const mined = await f.dev.mine(2);
    const status = await f.chain.transaction(swept.transfers[0]?.txid ?? '');
    expect(status).toEqual({ state: 'confirmed', height: mined - 1, confirmations: 2 });
    expect(await f.chain.balance(dep.address, 'trx')).toBe(0n);
    expect(await f.chain.balance(f.hot.address, 'trx')).toBe(hotBefore + 5_000_000n);
    // A transfer within the free daily bandwidth burns nothing: the receipt says bandwidth was used.
    const receipt = (await f.info(swept.transfers[0]?.txid ?? '')).receipt as Record<string, number>;
    expect(receipt.net_usage).toBeGreaterThan(200);
    expect(receipt.net_fee).toBeUndefined();
  });

  it('takes a USDT deposit, tops up gas from the hot wallet, sweeps the tokens, and withdraws', async () => {
    const dep = f.deposit(1);
    const txid = await f.dev.faucet(dep.address, 'usdt', 250_000_000n);
    const height = await f.dev.mine();
    expect((await f.chain.block(height))?.transfers).toEqual([
      { txid, index: 0, currency: 'usdt', to: dep.address, from: f.sim.faucetAddress, amount: 250_000_000n },
    ]);
    expect(await f.chain.balance(dep.address, 'usdt')).toBe(250_000_000n);

    // Gas: the TRX one TRC-20 transfer burns (energy to a new holder at 100 sun, 345 bytes of bandwidth).
    const fee = await f.chain.sweepFee('usdt');
    expect(fee).toBe(NEW_HOLDER_ENERGY * ENERGY_FEE + 345n * 1_000n);
    expect(await f.chain.sweepFee('trx')).toBe(0n);
    const hotTrx = await f.chain.balance(f.hot.address, 'trx');
    await f.chain.send({
      purpose: { kind: 'gas', depositIndex: 1 },
      from: f.hot,
      to: dep.address,
      currency: 'trx',
      amount: fee,
    });
    await f.dev.mine();
    // The deposit address had no account (a token credit does not create one): the hot wallet paid for it.
    expect(await f.chain.balance(f.hot.address, 'trx')).toBe(hotTrx - fee - NEW_ACCOUNT_FEE);
    expect(await f.chain.balance(dep.address, 'trx')).toBe(fee);

    const swept = await f.chain.sweep({ from: [dep], to: f.hot.address, currency: 'usdt' });
    expect(swept.transfers).toEqual([
      { txid: expect.any(String), from: [dep.address], amount: 250_000_000n },
    ]);
    const sweptAt = await f.dev.mine();
    const sweepTxid = swept.transfers[0]?.txid ?? '';
    expect((await f.chain.block(sweptAt))?.transfers).toEqual([
      {
        txid: sweepTxid,
        index: 0,
        currency: 'usdt',
        to: f.hot.address,
        from: dep.address,
        amount: 250_000_000n,
      },
    ]);
    const sweepInfo = await f.info(sweepTxid);
    expect(sweepInfo.receipt).toMatchObject({
      energy_usage_total: Number(NEW_HOLDER_ENERGY),
      energy_fee: Number(NEW_HOLDER_ENERGY * ENERGY_FEE),
      result: 'SUCCESS',
    });
    expect(await f.chain.balance(dep.address, 'usdt')).toBe(0n);
    expect(await f.chain.balance(f.hot.address, 'usdt')).toBe(250_000_000n);
    // Energy burnt; the bandwidth came out of the free allowance.
    expect(await f.chain.balance(dep.address, 'trx')).toBe(fee - NEW_HOLDER_ENERGY * ENERGY_FEE);

    // A withdrawal to an external address, in USDT (a new holder) and in TRX (a new account).
    const customer = external();
    const hotBefore = await f.chain.balance(f.hot.address, 'trx');
    const usdtOut = await f.chain.send({
      purpose: { kind: 'withdrawal', withdrawalId: 1 },
      from: f.hot,
      to: customer,
      currency: 'usdt',
      amount: 100_000_000n,
    });
    const trxOut = await f.chain.send({
      purpose: { kind: 'withdrawal', withdrawalId: 2 },
      from: f.hot,
      to: customer,
      currency: 'trx',
      amount: 2_000_000n,
    });
    const outAt = await f.dev.mine();
    const transfers = (await f.chain.block(outAt))?.transfers;
    expect(transfers).toContainEqual({
      txid: usdtOut.txid,
      index: 0,
      currency: 'usdt',
      to: customer,
      from: f.hot.address,
      amount: 100_000_000n,
    });
    expect(transfers).toContainEqual({
      txid: trxOut.txid,
      index: -1,
      currency: 'trx',
      to: customer,
      from: f.hot.address,
      amount: 2_000_000n,
    });
    const usdtFee = BigInt(Number((await f.info(usdtOut.txid)).fee));
    expect(usdtFee).toBe(NEW_HOLDER_ENERGY * ENERGY_FEE);
    // A token credit creates no account: the TRX transfer pays for the customer's.
    expect(await f.chain.balance(f.hot.address, 'trx')).toBe(
      hotBefore - usdtFee - 2_000_000n - NEW_ACCOUNT_FEE,
    );
    expect(await f.chain.balance(f.hot.address, 'usdt')).toBe(150_000_000n);
    expect(await f.chain.balance(customer, 'usdt')).toBe(100_000_000n);
    expect(await f.chain.balance(customer, 'trx')).toBe(2_000_000n);

    // A second USDT withdrawal to the same (now holding) address costs the lower energy.
    const again = await f.chain.send({
      purpose: { kind: 'withdrawal', withdrawalId: 3 },
      from: f.hot,
      to: customer,
      currency: 'usdt',
      amount: 1_000_000n,
    });
    await f.dev.mine();
    expect((await f.info(again.txid)).receipt).toMatchObject({ energy_usage_total: Number(HOLDER_ENERGY) });
  });

  it('broadcast only what protobufjs decodes to the request, signed by the owner (ethers recovers it)', async () => {
    expect(f.signed.length).toBeGreaterThanOrEqual(5);
    for (const tx of f.signed) {
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
      const held = await f.node('/wallet/gettransactionbyid', { value: tx.txID });
      if (held.txID) expect(held.raw_data_hex).toBe(tx.raw_data_hex);
    }
  });
});
