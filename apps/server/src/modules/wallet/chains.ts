import type pg from 'pg';
import type { ExplorerTemplates } from '../../adapters/chains/explorers.ts';
import type { ChainPort, KeyScheme } from '../../adapters/chains/port.ts';
import { type ActiveChainRow, activeChains, fillExplorerTemplates } from './networks-repository.ts';

/** A network the wallet serves: its adapter and the rules it runs by. */
export interface Network {
  key: string;
  chain: ChainPort;
  /** Developer tools (faucet, mining, reorgs) on simulators and devnets; null on real networks. */
  dev: DevTools | null;
  confirmations: number;
  /** Explorer link template with `#{txid}`, if any. */
  explorerTransaction: string | null;
  /** Currencies on this network with their precision. */
  currencies: Map<string, number>;
}

/** Test coins and blocks on demand, where a chain allows it (the simulators' extensions, a devnet's RPCs). */
export interface DevTools {
  /** Sends `amount` (currency units) to `address`; resolves with the txid. */
  faucet(address: string, currency: string, amount: bigint): Promise<string>;
  /** Mines `blocks` blocks; resolves with the new height. */
  mine(blocks?: number): Promise<number>;
  /**
   * Replaces the newest `depth` blocks by as many new ones. Their transactions are dropped (as if double-spent)
   * unless `keepTransactions`, in which case they return to the mempool.
   */
  reorg(depth: number, keepTransactions?: boolean): Promise<number>;
}

/** Builds an adapter for a `blockchains.client` kind; `null` when this process cannot serve it. */
export type ChainFactory = (
  key: string,
  client: string,
  currencies: Record<string, number>,
) => Promise<{ chain: ChainPort; dev: DevTools | null } | null>;

/**
 * Gives a network without explorer templates those of the public chain its node is on (mainnet, a public
 * testnet), so its transactions link to the well-known explorer. Templates an operator set are kept; a
 * simulator or devnet has none to give, and its templates stay null. Answers the transaction template it
 * stored, or null when it stored none.
 */
async function fillExplorer(
  db: pg.Pool,
  key: string,
  explorer: ExplorerTemplates | null,
): Promise<string | null> {
  if (!explorer) return null;
  return (await fillExplorerTemplates(db, key, explorer)) ? explorer.transaction : null;
}

/** How long to wait before asking an unreachable node again. */
const RETRY_MS = 5_000;

/** The networks of the database, each with its adapter. */
export class ChainRegistry {
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly networks: Map<string, Network>) {}

  /**
   * Loads the active blockchains, each built by `factory` (Bitcoin, TRON, EVM). A network whose node cannot be
   * reached yet (a Bitcoin adapter asks its node which chain it is on) is left out and tried again every few
   * seconds in the background, so one node down does not stop the process; it joins once its node answers.
   */
  static async load(
    db: pg.Pool,
    factory: ChainFactory,
    log: { warn(message: string): void } = console,
  ): Promise<ChainRegistry> {
    const chains = await activeChains(db);
    const networks = new Map<string, Network>();
    const registry = new ChainRegistry(networks);
    const build = async (row: ActiveChainRow, first = true): Promise<boolean> => {
      const currencies: Record<string, number> = row.currencies ?? {};
      try {
        const built = await factory(row.key, row.client, currencies);
        if (built) {
          const explorer = await fillExplorer(db, row.key, built.chain.explorer ?? null);
          networks.set(row.key, {
            key: row.key,
            chain: built.chain,
            dev: built.dev,
            confirmations: row.min_confirmations,
            explorerTransaction: row.explorer_transaction ?? explorer,
            currencies: new Map(Object.entries(currencies)),
          });
        }
        if (!first) log.warn(`${row.key}: its node answers now; the network is served`);
        return true;
      } catch (err) {
        if (first)
          log.warn(
            `${row.key}: its node is not reachable (${String(err)}); trying again every ${RETRY_MS / 1000} s`,
          );
        return false;
      }
    };
    let pending: ActiveChainRow[] = [];
    for (const row of chains) if (!(await build(row))) pending.push(row);
    if (pending.length > 0) {
      registry.retry = setInterval(() => {
        void (async () => {
          const still: ActiveChainRow[] = [];
          for (const row of pending) if (!(await build(row, false))) still.push(row);
          pending = still;
          if (pending.length === 0) clearInterval(registry.retry);
        })();
      }, RETRY_MS);
      registry.retry.unref();
    }
    return registry;
  }

  /** Stops asking unreachable nodes again. */
  stop(): void {
    clearInterval(this.retry);
  }

  /** The network, or undefined when it is unknown or not served by this process. */
  get(key: string): Network | undefined {
    return this.networks.get(key);
  }

  all(): Network[] {
    return [...this.networks.values()];
  }

  /** The key scheme of a network (for the signer client); throws for a network this process does not serve. */
  schemeOf = (key: string): KeyScheme => {
    const network = this.networks.get(key);
    if (!network) throw new Error(`no adapter for network ${key}`);
    return network.chain.keyScheme;
  };
}
