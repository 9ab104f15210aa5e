import { hex } from '@scure/base';
import { BtcAmount, type DecodedTx, decodeTx, scriptPubKeyJson } from './codec.ts';
import { addressScript, type Method, mine } from './method-kit.ts';
import { RpcError } from './params.ts';
import { SIM_METHODS } from './sim-methods.ts';
import { type BitcoinStore, serializeBlock } from './store.ts';
import { checkForMempool, RPC } from './validate.ts';
import { chainwork, headerJson, REGTEST_DIFFICULTY, txJson } from './views.ts';

/**
 * The RPC methods of the simulated node: Core's own (same names, parameters, results and errors) plus the
 * simulator's extensions, all prefixed `sim` (`simfaucet`, `simmine`, `simreorg`).
 */

/** sendrawtransaction's default maxfeerate: 0.10 BTC/kvB, in sat/kvB. */
const DEFAULT_MAX_FEE_RATE = 10_000_000n;
/** How many recent blocks the simulated fee estimate looks at. */
const ESTIMATE_WINDOW = 10;

const NO_MEMPOOL_TX =
  'No such mempool transaction. Use -txindex or provide a block hash to enable blockchain transaction queries. Use gettransaction for wallet transactions.';

export const METHODS: Record<string, Method> = {
  getblockchaininfo: {
    names: [],
    required: 0,
    async run({ store }) {
      const tip = await store.requireTip();
      return {
        chain: 'regtest',
        blocks: tip.height,
        headers: tip.height,
        bestblockhash: tip.hash,
        bits: '207fffff',
        target: '7fffff0000000000000000000000000000000000000000000000000000000000',
        difficulty: REGTEST_DIFFICULTY,
        time: tip.time,
        mediantime: tip.time,
        verificationprogress: 1,
        initialblockdownload: false,
        chainwork: chainwork(tip.height),
        size_on_disk: 0,
        pruned: false,
        warnings: [],
      };
    },
  },

  getblockcount: { names: [], required: 0, run: async ({ store }) => (await store.requireTip()).height },

  getbestblockhash: { names: [], required: 0, run: async ({ store }) => (await store.requireTip()).hash },

  getblockhash: {
    names: ['height'],
    required: 1,
    async run({ store }, p) {
      await store.requireTip();
      const block = await store.blockAt(store.pool, p.int(0));
      if (!block) throw new RpcError(RPC.INVALID_PARAMETER, 'Block height out of range');
      return block.hash;
    },
  },

  getblockheader: {
    names: ['blockhash', 'verbose'],
    required: 1,
    async run({ store }, p) {
      const block = await store.blockByHash(store.pool, p.hash(0, 'blockhash'));
      if (!block) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block not found');
      if (!p.bool(1, true)) return hex.encode(block.header);
      const tip = await store.requireTip();
      const next = block.active ? await store.blockAt(store.pool, block.height + 1) : null;
      const nTx = (await store.blockTransactions(store.pool, block.hash)).length;
      return { ...headerJson(block, tip.height, next?.hash ?? null), nTx };
    },
  },

  getblock: {
    names: ['blockhash', 'verbosity'],
    required: 1,
    async run({ store }, p) {
      const block = await store.blockByHash(store.pool, p.hash(0, 'blockhash'));
      if (!block) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block not found');
      const verbosity = p.level(1, 1);
      const txs = await store.blockTransactions(store.pool, block.hash);
      if (verbosity <= 0) return hex.encode(serializeBlock(block.header, txs));
      const tip = await store.requireTip();
      const next = block.active ? await store.blockAt(store.pool, block.height + 1) : null;
      const size = 80 + txs.reduce((n, t) => n + t.size, 1);
      const weight = 80 * 4 + txs.reduce((n, t) => n + t.weight, 4);
      return {
        ...headerJson(block, tip.height, next?.hash ?? null),
        nTx: txs.length,
        strippedsize: Math.floor((weight - size) / 3),
        size,
        weight,
        tx: verbosity === 1 ? txs.map((t) => t.txid) : txs.map((t) => txJson(t, t.fee)),
      };
    },
  },

  getrawtransaction: {
    names: ['txid', 'verbose', 'blockhash'],
    required: 1,
    async run({ store, txindex }, p) {
      const txid = p.hash(0, 'parameter 1');
      const verbose = p.level(1, 0);
      const blockHash = p.values[2] === undefined || p.values[2] === null ? null : p.hash(2, 'parameter 3');
      const tip = await store.requireTip();
      const known = await store.transaction(store.pool, txid);
      if (blockHash) {
        const block = await store.blockByHash(store.pool, blockHash);
        if (!block) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block hash not found');
        const txs = await store.blockTransactions(store.pool, blockHash);
        const tx = txs.find((t) => t.txid === txid);
        if (!tx) {
          throw new RpcError(
            RPC.INVALID_ADDRESS_OR_KEY,
            'No such transaction found in the provided block. Use gettransaction for wallet transactions.',
          );
        }
        if (!verbose) return hex.encode(tx.raw);
        return {
          in_active_chain: block.active,
          ...txJson(tx, null),
          blockhash: block.hash,
          confirmations: block.active ? tip.height - block.height + 1 : 0,
          time: block.time,
          blocktime: block.time,
        };
      }
      const visible = known && (known.inMempool || (txindex && known.blockHash));
      if (!known || !visible) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, NO_MEMPOOL_TX);
      if (!verbose) return hex.encode(known.tx.raw);
      if (!known.blockHash) return txJson(known.tx, null);
      const block = await store.blockByHash(store.pool, known.blockHash);
      return {
        ...txJson(known.tx, null),
        blockhash: known.blockHash,
        confirmations: tip.height - (known.height ?? tip.height) + 1,
        time: block?.time,
        blocktime: block?.time,
      };
    },
  },

  decoderawtransaction: {
    names: ['hexstring', 'iswitness'],
    required: 1,
    async run(_ctx, p) {
      return txJson(decodeHex(p.string(0), 'TX decode failed'), null, false);
    },
  },

  getmempoolentry: {
    names: ['txid'],
    required: 1,
    async run({ store }, p) {
      const known = await store.transaction(store.pool, p.hash(0, 'parameter 1'));
      if (!known?.inMempool) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Transaction not in mempool');
      const tip = await store.requireTip();
      const fee = new BtcAmount(known.fee ?? 0n);
      return {
        vsize: known.tx.vsize,
        weight: known.tx.weight,
        time: known.mempoolTime,
        height: tip.height,
        descendantcount: 1,
        descendantsize: known.tx.vsize,
        ancestorcount: 1,
        ancestorsize: known.tx.vsize,
        wtxid: known.tx.wtxid,
        fees: { base: fee, modified: fee, ancestor: fee, descendant: fee },
        depends: [],
        spentby: [],
        'bip125-replaceable': known.tx.inputs.some((i) => i.sequence < 0xfffffffe),
        unbroadcast: false,
      };
    },
  },

  gettxout: {
    names: ['txid', 'n', 'include_mempool'],
    required: 2,
    async run({ store }, p) {
      const txid = p.hash(0, 'txid');
      const n = p.int(1);
      const includeMempool = p.bool(2, true);
      const tip = await store.requireTip();
      const coin = (await store.coins(store.pool, [{ txid, vout: n }])).get(`${txid}:${n}`);
      if (!coin) return null;
      if (includeMempool ? coin.spentBy !== null : coin.spentBy !== null && !coin.spentInMempool) return null;
      if (!includeMempool && coin.height === null) return null;
      return {
        bestblock: tip.hash,
        confirmations: coin.height === null ? 0 : tip.height - coin.height + 1,
        value: new BtcAmount(coin.value),
        scriptPubKey: scriptPubKeyJson(coin.script),
        coinbase: coin.coinbase,
      };
    },
  },

  estimatesmartfee: {
    names: ['conf_target', 'estimate_mode'],
    required: 1,
    async run({ store }, p) {
      const target = p.int(0);
      if (target < 1 || target > 1008)
        throw new RpcError(RPC.INVALID_PARAMETER, 'Invalid conf_target, must be between 1 and 1008');
      const mode = (p.string(1, 'economical') ?? 'economical').toLowerCase();
      if (!['unset', 'economical', 'conservative'].includes(mode))
        throw new RpcError(
          RPC.INVALID_PARAMETER,
          'Invalid estimate_mode parameter, must be one of: "unset", "economical", "conservative"',
        );
      const rate = await recentFeeRate(store);
      if (rate === null) return { errors: ['Insufficient data or no feerate found'], blocks: 0 };
      return { feerate: new BtcAmount(rate), blocks: Math.max(2, target) };
    },
  },

  testmempoolaccept: {
    names: ['rawtxs', 'maxfeerate'],
    required: 1,
    async run({ store }, p) {
      const rawtxs = p.array(0);
      if (rawtxs.length < 1 || rawtxs.length > 25)
        throw new RpcError(RPC.INVALID_PARAMETER, 'Array must contain between 1 and 25 transactions.');
      const maxFeeRate = p.amount(1, DEFAULT_MAX_FEE_RATE);
      const txs = rawtxs.map((raw) => decodeHex(typeof raw === 'string' ? raw : '', 'TX decode failed'));
      return Promise.all(
        txs.map(async (tx) => {
          const verdict = await checkForMempool(store, store.pool, tx, maxFeeRate);
          if (!verdict.ok || verdict.alreadyInMempool) {
            return {
              txid: tx.txid,
              wtxid: tx.wtxid,
              allowed: false,
              'reject-reason': verdict.ok ? 'txn-already-in-mempool' : verdict.rejectReason,
            };
          }
          const rate = (verdict.fee * 1000n) / BigInt(tx.vsize);
          return {
            txid: tx.txid,
            wtxid: tx.wtxid,
            allowed: true,
            vsize: tx.vsize,
            fees: {
              base: new BtcAmount(verdict.fee),
              'effective-feerate': new BtcAmount(rate),
              'effective-includes': [tx.wtxid],
            },
          };
        }),
      );
    },
  },

  sendrawtransaction: {
    names: ['hexstring', 'maxfeerate', 'maxburnamount'],
    required: 1,
    async run({ store }, p) {
      const tx = decodeHex(p.string(0), 'TX decode failed. Make sure the tx has at least one input.');
      const maxFeeRate = p.amount(1, DEFAULT_MAX_FEE_RATE);
      return store.locked(async (q) => {
        const verdict = await checkForMempool(store, q, tx, maxFeeRate);
        if (!verdict.ok) throw new RpcError(verdict.code, verdict.message);
        if (!verdict.alreadyInMempool) await store.addToMempool(q, tx, 'standard', verdict.fee);
        return tx.txid;
      });
    },
  },

  generatetoaddress: {
    names: ['nblocks', 'address', 'maxtries'],
    required: 2,
    async run({ store }, p) {
      const blocks = p.int(0);
      const script = addressScript(p.string(1));
      if (!script) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Error: Invalid address');
      return store.locked(async (q) => mine(store, q, blocks, script));
    },
  },

  invalidateblock: {
    names: ['blockhash'],
    required: 1,
    async run({ store }, p) {
      const hash = p.hash(0, 'blockhash');
      await store.locked(async (q) => {
        const block = await store.blockByHash(q, hash);
        if (!block) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Block not found');
        if (block.height === 0) throw new RpcError(RPC.DATABASE_ERROR, 'Cannot invalidate the genesis block');
        if (block.active) await store.disconnectFrom(q, block.height, true);
      });
      return null;
    },
  },

  ...SIM_METHODS,
};

function decodeHex(text: string | null, message: string): DecodedTx {
  try {
    if (!text || !/^([0-9a-fA-F]{2})+$/.test(text)) throw new Error('not hex');
    return decodeTx(hex.decode(text.toLowerCase()));
  } catch {
    throw new RpcError(RPC.DESERIALIZATION_ERROR, message);
  }
}

/**
 * The simulator's fee estimate, in sat/kvB: the median fee rate of the transactions (not coinbases, not faucet
 * outputs) in the last {@link ESTIMATE_WINDOW} blocks, at least the 1 sat/vB relay minimum; null when those
 * blocks hold none (then Core's "Insufficient data" answer). Core's estimator needs far more history; this
 * only keeps the answer's shape and its no-data case.
 */
async function recentFeeRate(store: BitcoinStore): Promise<bigint | null> {
  const { rows } = await store.pool.query(
    `select t.fee, t.vsize from btcsim_transactions t join btcsim_blocks b on b.chain = t.chain and b.hash = t.block_hash
      where t.chain = $1 and t.kind = 'standard' and b.active
        and b.height > (select max(height) from btcsim_blocks where chain = $1 and active) - $2`,
    [store.chain, ESTIMATE_WINDOW],
  );
  if (rows.length === 0) return null;
  const rates = rows
    .map((r) => (BigInt(r.fee) * 1000n) / BigInt(r.vsize))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const median = rates[Math.floor(rates.length / 2)] ?? 1000n;
  return median < 1000n ? 1000n : median;
}
