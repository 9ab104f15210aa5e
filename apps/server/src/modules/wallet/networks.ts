import type pg from 'pg';
import { createBitcoinChain } from '../../adapters/chains/bitcoin/adapter.ts';
import { createBitcoinDevTools } from '../../adapters/chains/bitcoin/dev-tools.ts';
import type { ChainPort } from '../../adapters/chains/port.ts';
import type { SignerPort } from '../../adapters/chains/signing.ts';
import { createTronChain } from '../../adapters/chains/tron/adapter.ts';
import { createTronDevTools } from '../../adapters/chains/tron/dev-tools.ts';
import type { ChainsConfig } from '../../config-sections.ts';
import type { MigrationSet } from '../../db/migrate.ts';
import { ourAddresses } from './addresses.ts';
import type { ChainFactory, DevTools, Network } from './chains.ts';
import { type EvmSettings, evmChainFactory } from './evm.ts';
import { recordEndpoint, recordedEndpoint, setTrc20Contract } from './networks-repository.ts';

/** What the chain factories need: where each network's node is, and the signer. */
export interface NetworkSettings {
  chains: ChainsConfig;
  evm: EvmSettings;
  signer: SignerPort;
  /** A block every this many ms on the simulators (0: only when mined by hand). */
  simBlockMs: number;
  /**
   * This process runs the simulators (the worker role, or the one process) and records where
   * (`chain_endpoints`); the others reach them there.
   */
  runSimulators: boolean;
}

/**
 * The chain simulators' own migrations (packages/chain-sim/migrations), for `openDatabase` to apply after the
 * exchange's as the owner of the schema: the Bitcoin simulator's when no Bitcoin node's URL is configured, the TRON
 * simulator's when no TRON API's is. None on real nodes, whose start neither loads a simulator nor makes its tables.
 */
export async function chainSimulatorSchemas(
  chains: Pick<ChainsConfig, 'bitcoinRpcUrl' | 'tronApiUrl'>,
): Promise<MigrationSet[]> {
  if (chains.bitcoinRpcUrl && chains.tronApiUrl) return [];
  const sims = await import('@exchange/chain-sim');
  return [
    ...(chains.bitcoinRpcUrl ? [] : [sims.BITCOIN_SIMULATOR_MIGRATIONS]),
    ...(chains.tronApiUrl ? [] : [sims.TRON_SIMULATOR_MIGRATIONS]),
  ];
}

/** RPC credentials of the built-in Bitcoin simulator (it listens on loopback only). */
const SIM_RPC_USER = 'exchange';
const SIM_RPC_PASSWORD = 'simulator';

/**
 * The chain factory of the wallet: Bitcoin over Bitcoin Core's JSON-RPC, TRON over the java-tron HTTP API and EVM
 * over JSON-RPC, each pointed at a real node when configured and at its simulator (speaking the same protocol over
 * HTTP) otherwise. The simulators are loaded only when used: a deployment on real nodes never imports them.
 */
export function networkFactory(db: pg.Pool, settings: NetworkSettings) {
  const evm = evmChainFactory(db, settings.evm, settings.signer, settings.runSimulators);
  const stops: (() => Promise<void>)[] = [];
  const networks = new Map<string, Network>();
  const lookup = (key: string) => networks.get(key);

  /**
   * The URL of a network's simulator: this process starts it (and records where) when it runs the simulators and
   * its port is free; otherwise it is where another process recorded it, or at the configured port.
   */
  const simulator = async (
    key: string,
    start: () => Promise<{ url: string; stop(): Promise<void> }>,
    fallback: string,
  ): Promise<string> => {
    if (settings.runSimulators) {
      try {
        const sim = await start();
        stops.push(() => sim.stop());
        await recordEndpoint(db, key, sim.url);
        return sim.url;
      } catch (err) {
        // Another worker on this machine serves it already.
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      }
    }
    return (await recordedEndpoint(db, key)) ?? fallback;
  };

  const bitcoin = async (key: string): Promise<{ chain: ChainPort; dev: DevTools | null }> => {
    let rpcUrl = settings.chains.bitcoinRpcUrl;
    let dev: DevTools | null = null;
    if (!rpcUrl) {
      const port = settings.chains.simBitcoinPort;
      rpcUrl = await simulator(
        key,
        async () =>
          (await import('@exchange/chain-sim')).startBitcoinSimulator({
            pool: db,
            host: '127.0.0.1',
            port,
            blockMs: settings.simBlockMs,
            rpcUser: SIM_RPC_USER,
            rpcPassword: SIM_RPC_PASSWORD,
            chainKey: key,
          }),
        `http://${SIM_RPC_USER}:${SIM_RPC_PASSWORD}@127.0.0.1:${port}/`,
      );
      dev = createBitcoinDevTools(rpcUrl);
    }
    const chain = await createBitcoinChain({
      key,
      rpcUrl,
      db,
      signer: settings.signer,
      isOurs: async (addresses) => {
        const network = lookup(key);
        return network ? ourAddresses(db, network, addresses) : new Set();
      },
    });
    return { chain, dev };
  };

  const tron = async (key: string, currencies: Record<string, number>) => {
    let apiUrl = settings.chains.tronApiUrl;
    let dev: DevTools | null = null;
    const usdtContract = settings.chains.tronUsdtContract;
    if (!apiUrl) {
      const port = settings.chains.simTronPort;
      apiUrl = await simulator(
        key,
        async () =>
          (await import('@exchange/chain-sim')).startTronSimulator({
            pool: db,
            host: '127.0.0.1',
            port,
            blockMs: settings.simBlockMs,
            usdtContract,
            chainKey: key,
          }),
        `http://127.0.0.1:${port}`,
      );
      const tools = createTronDevTools({ apiUrl });
      dev = {
        faucet: (address, currency, amount) => {
          if (currency !== 'trx' && currency !== 'usdt')
            throw new Error(`the TRON simulator has no ${currency}`);
          return tools.faucet(address, currency, amount);
        },
        mine: tools.mine,
        reorg: tools.reorg,
      };
    }
    // The signer learns the token's contract from the network's record, as for ERC-20.
    await setTrc20Contract(db, key, usdtContract);
    const chain = createTronChain({
      key,
      apiUrl,
      apiKey: settings.chains.tronApiKey,
      signer: settings.signer,
      usdtContract,
      currencies,
    });
    return { chain, dev };
  };

  const factory: ChainFactory = async (key, client, currencies) => {
    if (client === 'bitcoin') return bitcoin(key);
    if (client === 'tron') return tron(key, currencies);
    return evm.factory(key, client, currencies);
  };
  return {
    factory,
    /** Tells the factory the networks it built (Bitcoin asks which addresses are ours while reading blocks). */
    register(all: Network[]) {
      for (const n of all) networks.set(n.key, n);
    },
    devnet: evm.devnet,
    async stop() {
      for (const stop of stops.reverse()) await stop().catch(() => {});
      await evm.stop();
    },
  };
}
