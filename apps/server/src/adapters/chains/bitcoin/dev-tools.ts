import { formatUnits } from '@exchange/shared';
import { createBitcoinRpc } from './rpc.ts';

/** Development controls of the Bitcoin simulator (its `sim*` JSON-RPC extensions; a real node has none). */
export interface BitcoinDevTools {
  /** Pays `amount` satoshis from nowhere to `address`; mined with the next block. Resolves with the txid. */
  faucet(address: string, currency: string, amount: bigint): Promise<string>;
  /** Mines `blocks` blocks (default 1); resolves with the new height. */
  mine(blocks?: number): Promise<number>;
  /**
   * Replaces the newest `depth` blocks by as many new ones; their transactions return to the mempool when
   * `keepTransactions`, otherwise they are dropped. Resolves with the height.
   */
  reorg(depth: number, keepTransactions?: boolean): Promise<number>;
}

/** The simulator's dev controls at `rpcUrl` (the same URL, with credentials, as the adapter's). */
export function createBitcoinDevTools(rpcUrl: string, timeoutMs = 30_000): BitcoinDevTools {
  const rpc = createBitcoinRpc(rpcUrl, timeoutMs);
  return {
    async faucet(address, currency, amount) {
      if (currency !== 'btc') throw new Error(`the Bitcoin simulator pays btc only, not ${currency}`);
      if (amount <= 0n) throw new Error('amount must be positive');
      // The amount travels as a decimal string, which Core's amount parameters accept: exact, unlike a float.
      return String(await rpc.call('simfaucet', [address, formatUnits(amount, 8)]));
    },
    async mine(blocks = 1) {
      return Number(await rpc.call('simmine', [blocks]));
    },
    async reorg(depth, keepTransactions = false) {
      return Number(await rpc.call('simreorg', [depth, keepTransactions]));
    },
  };
}
