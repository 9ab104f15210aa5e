import { readFile } from 'node:fs/promises';
import {
  Contract,
  computeAddress,
  FetchRequest,
  hexlify,
  Interface,
  JsonRpcProvider,
  Network,
  Wallet,
} from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmChain } from '../../src/adapters/chains/evm/adapter.ts';
import { compileTestUsdt } from '../../src/adapters/chains/evm/contracts/compile.ts';
import { type EvmDevnet, startEvmDevnet } from '../../src/adapters/chains/evm/devnet.ts';
import { TRANSFER_TOPIC } from '../../src/adapters/chains/evm/transfers.ts';
import { BroadcastUnknownError, type ChainPort, type ChainTransfer } from '../../src/adapters/chains/port.ts';
import type { WalletKey } from '../../src/adapters/chains/signing.ts';
import { publicKeyAt } from '../../src/modules/custody/hd.ts';
import { type RpcProxy, startRpcProxy } from '../support/rpc-proxy.ts';
import { uncheckedSigner } from '../support/unchecked-signer.ts';

const ETH = 10n ** 18n;
const USDT = 10n ** 6n;
const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

let devnet: EvmDevnet;
let chain: ChainPort;
let rpc: JsonRpcProvider;

function chainAt(rpcUrl: string, timeoutMs?: number): ChainPort {
  return createEvmChain({
    key: 'eth-devnet',
    rpcUrl,
    chainId: devnet.chainId,
    timeoutMs,
    currencies: [
      { currency: 'eth', precision: 18, native: true },
      { currency: 'usdt', precision: 6, contract: devnet.usdtAddress, decimals: 6 },
    ],
    signer: keys.signer,
  });
}

/** Keys of the test mnemonic, signed for with no policy (this file checks the protocol, not the custody rules). */
const keys = uncheckedSigner(() => ({ purpose: 44, coinType: 60, nativeCurrency: 'eth' }));
const depositXpub = keys.xpub({ purpose: 44, coinType: 60 }, 0);
let nextIndex = 0;
/** A fresh key of our wallet with its address. */
function newKey(): { address: string; key: WalletKey } {
  const index = nextIndex++;
  const address = computeAddress(hexlify(publicKeyAt(depositXpub, index)));
  return { address, key: { account: 0, index, address } };
}
const SWEEP = { kind: 'sweep' } as const;

/** The transfers `chain.block` lists for `txid`, read from the block the transaction was mined in. */
async function listed(txid: string): Promise<ChainTransfer[]> {
  const receipt = await rpc.getTransactionReceipt(txid);
  expect(receipt).not.toBeNull();
  const block = await chain.block(receipt!.blockNumber);
  return block!.transfers.filter((transfer) => transfer.txid === txid);
}

/** A transaction that reverts on chain: the gas limit is fixed so the node takes it without estimating. */
async function sendReverting(from: Wallet, request: { to: string; value?: bigint; data?: string }) {
  const tx = await from.sendTransaction({ ...request, gasLimit: 100_000n });
  const receipt = await tx.wait(1).catch(() => rpc.getTransactionReceipt(tx.hash));
  expect(receipt?.status).toBe(0);
  return tx.hash;
}

beforeAll(async () => {
  devnet = await startEvmDevnet();
  chain = chainAt(devnet.rpcUrl);
  rpc = new JsonRpcProvider(new FetchRequest(devnet.rpcUrl), Network.from(devnet.chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
  });
});

afterAll(async () => {
  rpc?.destroy();
  await devnet?.stop();
});

describe('EVM chain adapter on a Hardhat devnet', () => {
  it('lists an ether deposit to a fresh address with its exact amount', async () => {
    const { address } = newKey();
    const txid = await devnet.faucet(address, 'eth', 1_234_567_890_123_456_789n);

    expect(await listed(txid)).toEqual([
      {
        txid,
        index: -1,
        currency: 'eth',
        to: address,
        from: devnet.accounts[0]!.address,
        amount: 1_234_567_890_123_456_789n,
      },
    ]);
    expect(await chain.balance(address, 'eth')).toBe(1_234_567_890_123_456_789n);
  });

  it('lists a USDT transfer of the configured contract with its log index', async () => {
    const holder = new Wallet(devnet.accounts[1]!.privateKey, rpc);
    await devnet.faucet(holder.address, 'usdt', 100n * USDT);
    const { address } = newKey();
    const tx = await holder.sendTransaction({
      to: devnet.usdtAddress,
      data: ERC20.encodeFunctionData('transfer', [address, 12_345_678n]),
    });
    await tx.wait();

    const transfers = await listed(tx.hash);
    expect(transfers).toEqual([
      {
        txid: tx.hash,
        index: expect.any(Number),
        currency: 'usdt',
        to: address,
        from: holder.address,
        amount: 12_345_678n,
      },
    ]);
    expect(transfers[0]!.index).toBeGreaterThanOrEqual(0);
    expect(await chain.balance(address, 'usdt')).toBe(12_345_678n);
  });

  it('ignores a token with the same symbol from another contract', async () => {
    const fake = await devnet.deployToken('Tether USD', 'USDT');
    const { address } = newKey();
    const txid = await devnet.mintToken(fake, address, 500n * USDT);

    // The fake token did emit a real Transfer to the address: only its contract gives it away.
    const receipt = await rpc.getTransactionReceipt(txid);
    expect(receipt!.status).toBe(1);
    expect(receipt!.logs.map((log) => [log.address, log.topics[0]])).toEqual([[fake, TRANSFER_TOPIC]]);
    expect(
      await new Contract(fake, ['function symbol() view returns (string)'], rpc).getFunction('symbol')(),
    ).toBe('USDT');

    expect(await listed(txid)).toEqual([]);
    expect(await chain.balance(address, 'usdt')).toBe(0n);
  });

  it('does not list reverted transactions: a token transfer beyond the balance, ether sent to a contract that refuses it', async () => {
    const sender = new Wallet(devnet.accounts[2]!.privateKey, rpc);
    await devnet.faucet(sender.address, 'usdt', 5n * USDT);
    const { address } = newKey();

    const tokenTx = await sendReverting(sender, {
      to: devnet.usdtAddress,
      data: ERC20.encodeFunctionData('transfer', [address, 6n * USDT]),
    });
    // TestUSDT has no receive function: the value transfer reverts and the ether stays with the sender.
    const etherTx = await sendReverting(sender, { to: devnet.usdtAddress, value: 3n * ETH });

    expect(await listed(tokenTx)).toEqual([]);
    expect(await listed(etherTx)).toEqual([]);
    expect(await chain.balance(address, 'usdt')).toBe(0n);
    expect(await chain.transaction(etherTx)).toMatchObject({ state: 'failed' });
  });

  it('sends ether and USDT from a funded key; confirmations grow as blocks are mined', async () => {
    const hot = newKey();
    await devnet.faucet(hot.address, 'eth', 2n * ETH);
    await devnet.faucet(hot.address, 'usdt', 50n * USDT);
    const recipient = newKey();

    const ether = await chain.send({
      purpose: SWEEP,
      from: hot.key,
      to: recipient.address,
      currency: 'eth',
      amount: ETH / 4n,
    });
    const token = await chain.send({
      purpose: SWEEP,
      from: hot.key,
      to: recipient.address.toLowerCase(),
      currency: 'usdt',
      amount: 7_500_000n,
    });

    const first = await chain.transaction(token.txid);
    expect(first).toMatchObject({ state: 'confirmed', confirmations: 1 });
    expect(await chain.transaction(ether.txid)).toMatchObject({ state: 'confirmed', confirmations: 2 });
    await devnet.mine(5);
    expect(await chain.transaction(token.txid)).toEqual({
      state: 'confirmed',
      height: first.height,
      confirmations: 6,
    });

    expect(await chain.balance(recipient.address, 'eth')).toBe(ETH / 4n);
    expect(await chain.balance(recipient.address, 'usdt')).toBe(7_500_000n);
    expect(await listed(token.txid)).toMatchObject([
      { currency: 'usdt', to: recipient.address, amount: 7_500_000n },
    ]);
  });

  it('refuses sends the node would not accept, without a BroadcastUnknownError', async () => {
    const poor = newKey();
    await devnet.faucet(poor.address, 'eth', ETH / 100n);
    const to = devnet.accounts[3]!.address;

    const tooMuch = chain.send({ purpose: SWEEP, from: poor.key, to, currency: 'eth', amount: ETH });
    await expect(tooMuch).rejects.toThrow();
    await expect(tooMuch).rejects.not.toBeInstanceOf(BroadcastUnknownError);
    const noTokens = chain.send({ purpose: SWEEP, from: poor.key, to, currency: 'usdt', amount: USDT });
    await expect(noTokens).rejects.not.toBeInstanceOf(BroadcastUnknownError);
    await expect(
      chain.send({ purpose: SWEEP, from: poor.key, to: 'not-an-address', currency: 'eth', amount: 1n }),
    ).rejects.toThrow('not an EVM address');
    await expect(
      chain.send({ purpose: SWEEP, from: poor.key, to, currency: 'btc', amount: 1n }),
    ).rejects.toThrow('not carried');
    expect(await chain.balance(poor.address, 'eth')).toBe(ETH / 100n);
  });

  it('normalizes addresses and refuses garbage', () => {
    const address = devnet.accounts[0]!.address;
    expect(chain.normalizeAddress(address.toLowerCase())).toBe(address);
    expect(chain.normalizeAddress(address)).toBe(address);
    // Same address, one letter's case flipped: a typo the checksum catches.
    const letter = address.slice(2).search(/[a-fA-F]/) + 2;
    const flipped =
      address[letter] === address[letter]!.toLowerCase()
        ? address[letter]!.toUpperCase()
        : address[letter]!.toLowerCase();
    const wrongChecksum = `${address.slice(0, letter)}${flipped}${address.slice(letter + 1)}`;
    for (const garbage of [
      '',
      'hello',
      '0x123',
      address.slice(2),
      ` ${address}`,
      `${address}00`,
      `0x${'g'.repeat(40)}`,
      '0x0000000000000000000000000000000000000000',
      'XE7338O073KYGTWWZN0F2WZ0R8PX5ZPPZS',
      'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
      wrongChecksum,
    ]) {
      expect(chain.normalizeAddress(garbage), garbage).toBeNull();
    }
  });

  it('has no block beyond the tip', async () => {
    const tip = await chain.latestBlock();
    const block = await chain.block(tip);
    expect(block?.height).toBe(tip);
    expect((await chain.block(tip - 1))?.hash).toBe(block?.parentHash);
    expect(await chain.block(tip + 1)).toBeNull();
  });
});

describe('broadcast failures', () => {
  let proxy: RpcProxy;
  let proxied: ChainPort;

  beforeAll(async () => {
    proxy = await startRpcProxy(devnet.rpcUrl);
    proxied = chainAt(proxy.url, 1_000);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  async function fundedSender() {
    const sender = newKey();
    await devnet.faucet(sender.address, 'eth', ETH);
    return sender;
  }

  it('rejects with BroadcastUnknownError when the broadcast times out, though the node may have taken it', async () => {
    const sender = await fundedSender();
    const recipient = newKey();
    proxy.mode = 'swallow';
    const error = await proxied
      .send({ purpose: SWEEP, from: sender.key, to: recipient.address, currency: 'eth', amount: ETH / 2n })
      .catch((e: unknown) => e);
    proxy.mode = 'forward';

    expect(error).toBeInstanceOf(BroadcastUnknownError);
    const txid = /0x[0-9a-f]{64}/.exec((error as Error).message)?.[0];
    expect(txid).toBeDefined();
    // Why it must never be resent: the node did take it.
    expect(await chain.transaction(txid!)).toMatchObject({ state: 'confirmed' });
    expect(await chain.balance(recipient.address, 'eth')).toBe(ETH / 2n);
  });

  it('rejects with BroadcastUnknownError on a gateway error, and nothing was sent', async () => {
    const sender = await fundedSender();
    proxy.mode = 'bad-gateway';
    const result = proxied.send({
      purpose: SWEEP,
      from: sender.key,
      to: devnet.accounts[3]!.address,
      currency: 'eth',
      amount: 1n,
    });
    await expect(result).rejects.toBeInstanceOf(BroadcastUnknownError);
    proxy.mode = 'forward';
  });

  it('a refusal from the node is a plain error; "already known" means it was sent', async () => {
    const sender = await fundedSender();
    const to = devnet.accounts[3]!.address;
    proxy.mode = 'reject';
    const refused = proxied.send({ purpose: SWEEP, from: sender.key, to, currency: 'eth', amount: 1n });
    await expect(refused).rejects.toThrow('insufficient funds');
    await expect(refused).rejects.not.toBeInstanceOf(BroadcastUnknownError);

    proxy.mode = 'already-known';
    const { txid } = await proxied.send({
      purpose: SWEEP,
      from: sender.key,
      to,
      currency: 'eth',
      amount: 2n,
    });
    proxy.mode = 'forward';
    expect(await chain.transaction(txid)).toMatchObject({ state: 'confirmed' });
  });
});

describe('sweeps and reorgs on the devnet', () => {
  it('sweeps ether less its gas, and a token once the address holds the gas sweepFee names', async () => {
    const hot = newKey();
    const deposit = newKey();
    await devnet.faucet(deposit.address, 'eth', ETH);
    await devnet.faucet(deposit.address, 'usdt', 40n * USDT);
    // A token sweep needs gas at the address first; the fee is a bound, rounded up.
    const fee = await chain.sweepFee('usdt');
    expect(fee).toBeGreaterThan(0n);
    expect(await chain.sweepFee('eth')).toBe(0n);
    const token = await chain.sweep({ from: [deposit.key], to: hot.address, currency: 'usdt' });
    expect(token.transfers).toHaveLength(1);
    expect(token.transfers[0]).toMatchObject({ from: [deposit.address], amount: 40n * USDT });
    expect(await chain.balance(hot.address, 'usdt')).toBe(40n * USDT);
    const ether = await chain.sweep({ from: [deposit.key], to: hot.address, currency: 'eth' });
    const moved = ether.transfers[0]!.amount;
    expect(moved).toBeGreaterThan(ETH - fee);
    expect(await chain.balance(hot.address, 'eth')).toBe(moved);
    // What is left is less than one transfer's gas: nothing more to sweep.
    expect((await chain.sweep({ from: [deposit.key], to: hot.address, currency: 'eth' })).transfers).toEqual(
      [],
    );
  });

  it('a reorg replaces the deposit block: same height, another hash, no transfer', async () => {
    const { address } = newKey();
    const txid = await devnet.faucet(address, 'eth', ETH);
    const receipt = await rpc.getTransactionReceipt(txid);
    const before = await chain.block(receipt!.blockNumber);
    expect(before!.transfers.map((t) => t.txid)).toContain(txid);
    await devnet.reorg(2);
    const after = await chain.block(receipt!.blockNumber);
    expect(after!.hash).not.toBe(before!.hash);
    expect(after!.transfers).toEqual([]);
    expect(await chain.balance(address, 'eth')).toBe(0n);
  });
});

describe('TestUSDT artifact', () => {
  it('is what npm solc compiles from TestUSDT.sol', async () => {
    const committed: unknown = JSON.parse(
      await readFile(
        new URL('../../src/adapters/chains/evm/contracts/TestUSDT.json', import.meta.url),
        'utf8',
      ),
    );
    expect(await compileTestUsdt()).toEqual(committed);
  });
});
