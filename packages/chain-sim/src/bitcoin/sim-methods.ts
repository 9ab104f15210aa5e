import { addressScript, type Method, mine } from './method-kit.ts';
import { RpcError } from './params.ts';
import { RPC } from './validate.ts';

/**
 * The simulator's own RPC methods, all prefixed `sim`: development controls a real node does not have (money
 * from nowhere, mining on demand without an address, reorganisations).
 */

/** Where simmine's coinbases go: OP_TRUE, nobody's. */
const ANYONE_SCRIPT = Uint8Array.of(0x51);

export const SIM_METHODS: Record<string, Method> = {
  /** simfaucet(address, amount_btc) → txid: an output from nowhere, mined with the next block. */
  simfaucet: {
    names: ['address', 'amount'],
    required: 2,
    async run({ store }, p) {
      const script = addressScript(p.string(0));
      if (!script) throw new RpcError(RPC.INVALID_ADDRESS_OR_KEY, 'Invalid address');
      const value = p.amount(1);
      if (value <= 0n) throw new RpcError(RPC.TYPE_ERROR, 'Amount out of range');
      return store.locked((q) => store.faucet(q, script, value));
    },
  },

  /** simmine(nblocks = 1) → the new height; coinbases pay OP_TRUE. */
  simmine: {
    names: ['nblocks'],
    required: 0,
    async run({ store }, p) {
      const blocks = p.int(0, 1);
      return store.locked(async (q) => {
        await mine(store, q, blocks, ANYONE_SCRIPT);
        return (await store.tip(q))?.height ?? 0;
      });
    },
  },

  /**
   * simreorg(depth, keep_transactions = false) → the new height: the newest `depth` blocks are replaced by as many
   * new ones; their transactions return to the mempool (and into the first new block) when kept, otherwise they
   * are dropped, as if double-spent.
   */
  simreorg: {
    names: ['depth', 'keep_transactions'],
    required: 1,
    async run({ store }, p) {
      const depth = p.int(0);
      const keep = p.bool(1, false);
      if (depth < 1) throw new RpcError(RPC.INVALID_PARAMETER, 'depth must be at least 1');
      return store.locked(async (q) => {
        const tip = (await store.tip(q))?.height ?? 0;
        const from = Math.max(1, tip - depth + 1);
        if (from > tip) return tip;
        await store.disconnectFrom(q, from, keep);
        await mine(store, q, tip - from + 1, ANYONE_SCRIPT);
        return tip;
      });
    },
  },
};
