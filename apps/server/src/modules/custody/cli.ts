import type pg from 'pg';
import { NO_SIGNER } from '../../adapters/chains/signing.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { createPool } from '../../db/pool.ts';
import { loadServerKeys } from '../identity/crypto.ts';
import { ChainRegistry, type Network } from '../wallet/chains.ts';
import { recordedEndpoint } from '../wallet/endpoints.ts';
import { networkFactory } from '../wallet/networks.ts';
import { sweepLegacyKeys } from './legacy.ts';
import { erc20Tokens } from './legacy-repository.ts';

export const CUSTODY_USAGE = `  custody sweep-legacy      empty the addresses of earlier versions (each with a key of its own) into the hot
                            wallets and retire their keys; needs SECRET_KEY and the owner's connection (app running)`;

/**
 * The networks, read-only (the solvency check, the legacy sweep): real nodes from the configuration, development nodes where the
 * running app recorded them. No signer: the check only reads balances.
 */
export async function custodyNetworks(db: pg.Pool, config: Config): Promise<readonly Network[]> {
  const factory = networkFactory(db, {
    chains: config.chains,
    evm: { rpcUrl: config.evmRpcUrl, chainId: config.evmChainId, devnet: config.evmDevnet },
    signer: NO_SIGNER,
    simBlockMs: 0,
    runSimulators: false,
  });
  const registry = await ChainRegistry.load(db, async (key, client, currencies) =>
    factory.factory(key, client, currencies).catch((err: unknown) => {
      console.error(`${key}: cannot reach its node: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }),
  );
  return registry.all();
}

/** `custody sweep-legacy`; undefined for another command. */
export async function custodyCommand(
  argv: string[],
  database: Database,
  config: Config,
): Promise<number | undefined> {
  const [area, command] = argv;
  if (area !== 'custody' || command !== 'sweep-legacy') return undefined;
  const owner = createPool(database.adminUrl, 2);
  try {
    const keys = await loadServerKeys(database.pool, config.secretKey);
    const networks = await custodyNetworks(database.pool, config);
    const result = await sweepLegacyKeys(
      owner,
      database.pool,
      keys,
      networks,
      async (key) => config.evmRpcUrl ?? (await recordedEndpoint(database.pool, key)),
      (key) => erc20Tokens(database.pool, key),
    );
    for (const s of result.sent)
      console.log(`${s.network}: ${s.address}: sent ${s.currency} to the hot wallet (${s.txid})`);
    for (const w of result.waiting) console.log(`${w.network}: ${w.address}: kept for now: ${w.reason}`);
    console.log(`retired ${result.retired.length} legacy key(s); ${result.waiting.length} waiting`);
    return result.waiting.length === 0 ? 0 : 1;
  } finally {
    await owner.end();
  }
}
