import { type BtcNetwork, encodeP2wpkhAddress, validateAddress } from '@exchange/shared';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import { bitcoinExplorer } from '../explorers.ts';
import type { ChainBlock, ChainPort, ChainTransfer, KeyScheme, TransactionStatus } from '../port.ts';
import type { SignerPort } from '../signing.ts';
import { outputScript, scureNetwork } from './build.ts';
import { type BitcoinRpc, btcToSats, createBitcoinRpc, RPC_INVALID_PARAMETER, RpcError } from './rpc.ts';
import { createSpender } from './spend.ts';
import { type Utxo, UtxoStore } from './utxos-repository.ts';

export interface BitcoinChainOptions {
  /** The `blockchains.key`, e.g. `btc-regtest`. */
  key: string;
  /** Bitcoin Core's JSON-RPC endpoint with Basic credentials in it: `http://user:password@host:18443/`. */
  rpcUrl: string;
  db: pg.Pool;
  signer: SignerPort;
  /** Which of these addresses are ours (deposit addresses, the hot wallet): their outputs are recorded. */
  isOurs(addresses: string[]): Promise<Set<string>>;
  /** How long one RPC call may take (default 30 s). */
  timeoutMs?: number;
  /** Fee rate in sat/vB when the node has no estimate (estimatesmartfee "Insufficient data"); default 2. */
  fallbackFeeRate?: bigint;
}

/** Core's `chain` names → address network (signet and testnet4 use testnet's `tb` prefix and versions). */
const NETWORKS: Record<string, BtcNetwork> = {
  main: 'mainnet',
  test: 'testnet',
  testnet4: 'testnet',
  signet: 'testnet',
  regtest: 'regtest',
};

const ZERO_HASH = '0'.repeat(64);
/** How far back `transaction()` looks for one of our transactions whose block it has not seen yet. */
const SEARCH_DEPTH = 144;

/**
 * The chain port over a Bitcoin Core node's JSON-RPC, without a node wallet and without -txindex.
 *
 * Deposits (`block`): every output with an address, listed with its output index; outputs paying our addresses
 * (`isOurs`) are recorded in `btc_utxos`. Sends and sweeps spend recorded outputs, each checked with `gettxout`
 * first, through a PSBT the signer signs; fees come from `estimatesmartfee` (6 blocks), or `fallbackFeeRate`.
 * The state of our transactions comes from the mempool, the block we saw them in, or their outputs (`gettxout`).
 */
export async function createBitcoinChain(options: BitcoinChainOptions): Promise<ChainPort> {
  const rpc = createBitcoinRpc(options.rpcUrl, options.timeoutMs ?? 30_000);
  const info = (await rpc.call('getblockchaininfo')) as { chain?: unknown };
  const found = NETWORKS[String(info.chain)];
  if (!found) throw new Error(`${options.key}: unknown Bitcoin network ${String(info.chain)}`);
  const network: BtcNetwork = found;
  const keyScheme: KeyScheme = {
    purpose: 84,
    coinType: info.chain === 'main' ? 0 : 1,
    nativeCurrency: 'btc',
  };
  const utxos = new UtxoStore(options.db, options.key);
  const spender = createSpender({
    key: options.key,
    rpc,
    db: options.db,
    utxos,
    signer: options.signer,
    network: scureNetwork(network),
    keyScheme,
    fallbackSatPerKvB: (options.fallbackFeeRate ?? 2n) * 1000n,
    isOurs: options.isOurs,
  });
  const normalizeAddress = (address: string) => validateAddress('btc', address, { btcNetworks: [network] });
  const requireBtc = (currency: string) => {
    if (currency !== 'btc') throw new Error(`${options.key} carries btc only, not ${currency}`);
  };

  return {
    key: options.key,
    explorer: bitcoinExplorer(String(info.chain)),
    keyScheme,

    addressOf(publicKey) {
      if (publicKey.length !== 33) throw new Error('a compressed public key has 33 bytes');
      return encodeP2wpkhAddress(network, ripemd160(sha256(publicKey)));
    },

    async latestBlock() {
      return Number(await rpc.call('getblockcount'));
    },

    async block(height) {
      let hash: string;
      try {
        hash = String(await rpc.call('getblockhash', [height]));
      } catch (error) {
        if (error instanceof RpcError && error.code === RPC_INVALID_PARAMETER) return null;
        throw error;
      }
      const block = (await rpc.call('getblock', [hash, 2])) as RpcBlock;
      const transfers: ChainTransfer[] = [];
      const spends: { txid: string; vout: number; by: string }[] = [];
      for (const tx of block.tx) {
        for (const input of tx.vin) {
          if (input.txid !== undefined && input.vout !== undefined)
            spends.push({ txid: input.txid, vout: input.vout, by: tx.txid });
        }
        for (const output of tx.vout) {
          const to = output.scriptPubKey.address;
          const amount = btcToSats(output.value);
          if (!to || amount <= 0n) continue;
          transfers.push({ txid: tx.txid, index: output.n, currency: 'btc', to, from: null, amount });
        }
      }
      await record(block, transfers, spends);
      return {
        height: block.height,
        hash: block.hash,
        parentHash: block.previousblockhash ?? ZERO_HASH,
        transfers,
      } satisfies ChainBlock;
    },

    normalizeAddress,

    async balance(address, currency) {
      requireBtc(currency);
      let total = 0n;
      for (const utxo of await utxos.unspent(options.db, [address])) {
        const out = await txOut(rpc, utxo, true);
        if (!out) await utxos.markGone(options.db, utxo);
        else if (out.confirmations >= 1) total += utxo.amount;
      }
      return total;
    },

    async send(request) {
      requireBtc(request.currency);
      const to = normalizeAddress(request.to);
      if (!to) throw new Error(`${options.key}: not an address of this network: ${request.to}`);
      return spender.send({ ...request, to });
    },

    async sweep(request) {
      requireBtc(request.currency);
      const to = normalizeAddress(request.to);
      if (!to) throw new Error(`${options.key}: not an address of this network: ${request.to}`);
      return spender.sweep({ ...request, to });
    },

    async sweepFee() {
      return 0n;
    },

    async transaction(txid) {
      return transactionStatus(rpc, utxos, txid);
    },
  };

  /** Records the block's outputs to our addresses, our transactions' block, and outputs of ours spent elsewhere. */
  async function record(
    block: RpcBlock,
    transfers: ChainTransfer[],
    spends: { txid: string; vout: number; by: string }[],
  ) {
    const ours =
      transfers.length > 0
        ? await options.isOurs([...new Set(transfers.map((t) => t.to))])
        : new Set<string>();
    const network_ = scureNetwork(network);
    const mine: Utxo[] = transfers
      .filter((t) => ours.has(t.to))
      .map((t) => ({
        txid: t.txid,
        vout: t.index,
        address: t.to,
        amount: t.amount,
        script: hex.encode(outputScript(t.to, network_)),
      }));
    await withTransaction(options.db, async (q) => {
      await utxos.record(q, mine, block.hash);
      await utxos.rememberBlock(
        q,
        block.tx.map((t) => t.txid),
        block.hash,
      );
      await utxos.spentInBlock(q, spends);
    });
  }
}

interface RpcBlock {
  hash: string;
  height: number;
  confirmations: number;
  previousblockhash?: string;
  tx: {
    txid: string;
    vin: { txid?: string; vout?: number }[];
    vout: { value: unknown; n: number; scriptPubKey: { address?: string } }[];
  }[];
}

/** `gettxout`: the output's confirmations, or null when it is spent or unknown. */
export async function txOut(rpc: BitcoinRpc, utxo: { txid: string; vout: number }, includeMempool: boolean) {
  const out = (await rpc.call('gettxout', [utxo.txid, utxo.vout, includeMempool])) as {
    confirmations: number;
  } | null;
  return out ? { confirmations: Number(out.confirmations) } : null;
}

/**
 * A transaction's state on a node without -txindex: in the mempool (`getmempoolentry`); else in the block we saw
 * it in, if that block is still in the active chain (`getblock` confirmations ≥ 0); else one of its outputs
 * unspent in the chain (`gettxout`); else found in the newest {@link SEARCH_DEPTH} blocks; else unknown.
 */
async function transactionStatus(
  rpc: BitcoinRpc,
  utxos: UtxoStore,
  txid: string,
): Promise<TransactionStatus> {
  const unknown: TransactionStatus = { state: 'unknown', height: null, confirmations: 0 };
  try {
    await rpc.call('getmempoolentry', [txid]);
    return { state: 'pending', height: null, confirmations: 0 };
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
  }
  const ours = await utxos.broadcast(txid);
  const tip = Number(await rpc.call('getblockcount'));
  const inBlock = async (blockHash: string): Promise<TransactionStatus | null> => {
    const block = (await rpc.call('getblock', [blockHash, 1])) as {
      height: number;
      confirmations: number;
      tx: string[];
    };
    if (block.confirmations < 0 || !block.tx.includes(txid)) return null;
    return { state: 'confirmed', height: block.height, confirmations: block.confirmations };
  };
  if (ours?.blockHash) {
    const status = await inBlock(ours.blockHash);
    if (status) return status;
  }
  for (let vout = 0; vout < (ours?.outputs ?? 0); vout++) {
    const out = await txOut(rpc, { txid, vout }, false);
    if (out && out.confirmations > 0) {
      return { state: 'confirmed', height: tip - out.confirmations + 1, confirmations: out.confirmations };
    }
  }
  for (let height = tip; height >= Math.max(0, tip - SEARCH_DEPTH + 1); height--) {
    const hash = String(await rpc.call('getblockhash', [height]));
    const status = await inBlock(hash);
    if (status) {
      if (ours) await utxos.rememberBlock(utxos.db, [txid], hash);
      return status;
    }
  }
  return unknown;
}
