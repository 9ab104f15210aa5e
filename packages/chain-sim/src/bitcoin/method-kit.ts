import { Address, OutScript } from '@scure/btc-signer';
import { REGTEST } from './codec.ts';
import { type Params, RpcError } from './params.ts';
import type { BitcoinStore, Queryable } from './store.ts';
import { RPC } from './validate.ts';

/**
 * What every RPC method of the simulated node is given and what it is, and the helpers both Core's methods
 * (methods.ts) and the simulator's own `sim` methods (sim-methods.ts) use: apart, so neither imports the other.
 */

/** What a method runs against: the node's store and whether it keeps a transaction index. */
export interface MethodContext {
  store: BitcoinStore;
  /** As Core's -txindex: when false, getrawtransaction finds confirmed transactions only given their block. */
  txindex: boolean;
}

/** An RPC method: its parameter names, how many are required, and what it does. */
export type Method = {
  names: readonly string[];
  required: number;
  run: (ctx: MethodContext, p: Params) => Promise<unknown>;
};

/** Mines `blocks` blocks paying `script`; returns their hashes. */
export async function mine(
  store: BitcoinStore,
  q: Queryable,
  blocks: number,
  script: Uint8Array,
): Promise<string[]> {
  if (blocks < 0 || blocks > 1000)
    throw new RpcError(RPC.INVALID_PARAMETER, 'nblocks must be between 0 and 1000');
  const hashes: string[] = [];
  for (let i = 0; i < blocks; i++) hashes.push(await store.mineBlock(q, script));
  return hashes;
}

/** The output script of a regtest address, or null. */
export function addressScript(address: string | null): Uint8Array | null {
  if (!address) return null;
  try {
    return OutScript.encode(Address(REGTEST).decode(address));
  } catch {
    return null;
  }
}
