import type pg from 'pg';
import type { ChainPort } from '../../adapters/chains/port.ts';
import { createSimChain, type SimChain } from '../../adapters/chains/sim/chain.ts';

/** A network the wallet serves: its adapter and the rules it runs by. */
export interface Network {
  key: string;
  chain: ChainPort;
  /** Set for simulated chains: the faucet, mining and reorgs. */
  sim: SimChain | null;
  confirmations: number;
  /** Explorer link template with `#{txid}`, if any. */
  explorerTransaction: string | null;
  /** Currencies on this network with their precision. */
  currencies: Map<string, number>;
  /** Deposits are swept to the hot wallet (free on simulated chains); otherwise they stay where they landed. */
  collect: boolean;
}

/** Builds an adapter for a `blockchains.client` kind; `null` when this process cannot serve it. */
export type ChainFactory = (
  key: string,
  client: string,
  currencies: Record<string, number>,
) => Promise<ChainPort | null>;

/** The networks of the database, each with its adapter. */
export class ChainRegistry {
  constructor(private readonly networks: Map<string, Network>) {}

  /** Loads the active blockchains; simulated ones are built here, the rest by `factory` (EVM, ...). */
  static async load(db: pg.Pool, factory: ChainFactory = async () => null): Promise<ChainRegistry> {
    const chains = await db.query(
      `select b.key, b.client, b.min_confirmations, b.explorer_transaction,
         json_object_agg(c.id, c.precision) filter (where c.id is not null) as currencies
       from blockchains b
       left join currency_networks n on n.blockchain_key = b.key
       left join currencies c on c.id = n.currency_id
       where b.status = 'active' group by b.key order by b.key`,
    );
    const networks = new Map<string, Network>();
    for (const row of chains.rows) {
      const currencies: Record<string, number> = row.currencies ?? {};
      const flavour = row.client === 'sim-tron' ? 'tron' : row.client === 'sim-btc' ? 'btc' : null;
      const sim = flavour ? createSimChain(db, { key: row.key, flavour, currencies }) : null;
      const chain = sim ?? (await factory(row.key, row.client, currencies));
      if (!chain) continue;
      networks.set(row.key, {
        key: row.key,
        chain,
        sim,
        confirmations: row.min_confirmations,
        explorerTransaction: row.explorer_transaction,
        currencies: new Map(Object.entries(currencies)),
        collect: sim !== null,
      });
    }
    return new ChainRegistry(networks);
  }

  /** The network, or undefined when it is unknown or not served by this process. */
  get(key: string): Network | undefined {
    return this.networks.get(key);
  }

  all(): Network[] {
    return [...this.networks.values()];
  }
}
