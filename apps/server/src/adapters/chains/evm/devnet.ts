import { fileURLToPath } from 'node:url';
import { Contract, ContractFactory, FetchRequest, id, JsonRpcProvider, Network, Wallet } from 'ethers';
import { resolveConfig } from 'hardhat/internal/core/config/config-resolution.js';
import { createProvider } from 'hardhat/internal/core/providers/construction.js';
import { JsonRpcServer } from 'hardhat/internal/hardhat-network/jsonrpc/server.js';
import artifact from './contracts/TestUSDT.json' with { type: 'json' };

export interface EvmDevnetOptions {
  /** Loopback port for the JSON-RPC server; 0 (default) picks a free one. */
  port?: number;
  /** Default 31337, Hardhat's own. */
  chainId?: number;
}

/** A funded development account. Its key is derived from a public string: never use it anywhere real. */
export interface DevnetAccount {
  address: string;
  privateKey: string;
}

export interface EvmDevnet {
  rpcUrl: string;
  chainId: number;
  /** The TestUSDT contract (6 decimals) deployed at start; the account 0 may mint it. */
  usdtAddress: string;
  /** Accounts holding 10,000 ether each; account 0 deployed the token and pays for the faucet. */
  accounts: DevnetAccount[];
  /**
   * Sends `amount` in the chain's smallest unit (wei for `eth`, 10^-6 for `usdt`, i.e. the currencies' own units
   * at precisions 18 and 6) to `address`: ether from account 0, usdt minted. Resolves with the txid once mined.
   */
  faucet(address: string, currency: 'eth' | 'usdt', amount: bigint): Promise<string>;
  /** Adds `blocks` empty blocks (default 1) and resolves with the new height. */
  mine(blocks?: number): Promise<number>;
  /**
   * Replaces the newest `depth` blocks by as many new, empty ones (their transactions are gone, as if
   * double-spent): back to the state snapshotted at that height, then mined again with later time stamps, so every
   * replaced block has another hash. Only heights the devnet snapshotted (before each faucet and mine) can be
   * reached; `keepTransactions` is not supported here.
   */
  reorg(depth: number, keepTransactions?: boolean): Promise<number>;
  /** Deploys another TestUSDT, e.g. a fake "USDT" at an address the wallet does not know. Resolves with its address. */
  deployToken(name: string, symbol: string): Promise<string>;
  /** Mints `amount` of the TestUSDT at `contract` (deployed by this devnet) to `address`; resolves with the txid. */
  mintToken(contract: string, address: string, amount: bigint): Promise<string>;
  stop(): Promise<void>;
}

const ACCOUNT_COUNT = 4;
const ACCOUNT_BALANCE = 10_000n * 10n ** 18n;

/** Deterministic development keys, so a restarted devnet funds the same accounts. */
function devnetAccounts(): DevnetAccount[] {
  return Array.from({ length: ACCOUNT_COUNT }, (_, i) => {
    const wallet = new Wallet(id(`exchange evm devnet account ${i}`));
    return { address: wallet.address, privateKey: wallet.privateKey };
  });
}

/**
 * Starts an in-process Hardhat 2 network behind Hardhat's own JSON-RPC HTTP server on 127.0.0.1, mining a block
 * for every transaction, and deploys TestUSDT (from the committed artifact, see contracts/compile.ts).
 * Hardhat is driven through its internals because it has no public API for a node without a project config:
 * `resolveConfig` fills in the defaults of the `hardhat` network, `createProvider` builds the EDR provider and
 * `JsonRpcServer` is what `hardhat node` serves it with. The config path only anchors project paths, which the
 * network never touches.
 */
export async function startEvmDevnet(options: EvmDevnetOptions = {}): Promise<EvmDevnet> {
  const chainId = options.chainId ?? 31337;
  const accounts = devnetAccounts();
  const config = resolveConfig(fileURLToPath(import.meta.url), {
    networks: {
      hardhat: {
        chainId,
        accounts: accounts.map((a) => ({ privateKey: a.privateKey, balance: ACCOUNT_BALANCE.toString() })),
        mining: { auto: true, interval: 0 },
        // Like a real node: a reverted transaction is mined with status 0, not turned into an RPC error.
        throwOnTransactionFailures: false,
        loggingEnabled: false,
      },
    },
  });
  const hardhat = await createProvider(config, 'hardhat');
  const server = new JsonRpcServer({ hostname: '127.0.0.1', port: options.port ?? 0, provider: hardhat });
  const { port } = await server.listen();
  const rpcUrl = `http://127.0.0.1:${port}`;

  const provider = new JsonRpcProvider(new FetchRequest(rpcUrl), Network.from(chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  const funder = new Wallet(accounts[0]!.privateKey, provider);
  // One transaction at a time from the funder: each takes the next nonce.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task);
    queue = result.catch(() => undefined);
    return result;
  };

  const deployToken = (name: string, symbol: string) =>
    serial(async () => {
      const contract = await new ContractFactory(artifact.abi, artifact.bytecode, funder).deploy(
        name,
        symbol,
      );
      await contract.waitForDeployment();
      return contract.getAddress();
    });

  const mintToken = (contract: string, address: string, amount: bigint) =>
    serial(async () => {
      const token = new Contract(contract, artifact.abi, funder);
      const tx = await token.getFunction('mint')(address, amount);
      await tx.wait();
      return tx.hash as string;
    });

  /** evm_snapshot ids by the height they were taken at (newest last), for reorgs. */
  const snapshots: { height: number; id: string }[] = [];
  const snapshot = async () => {
    const height = await provider.getBlockNumber();
    if (snapshots.at(-1)?.height === height) return;
    snapshots.push({ height, id: await provider.send('evm_snapshot', []) });
    if (snapshots.length > 256) snapshots.shift();
  };

  let usdtAddress: string;
  try {
    usdtAddress = await deployToken('Tether USD (devnet)', 'USDT');
  } catch (error) {
    provider.destroy();
    await server.close();
    throw error;
  }

  return {
    rpcUrl,
    chainId,
    usdtAddress,
    accounts,
    async faucet(address, currency, amount) {
      await serial(snapshot);
      if (currency === 'usdt') return mintToken(usdtAddress, address, amount);
      return serial(async () => {
        const tx = await funder.sendTransaction({ to: address, value: amount });
        await tx.wait();
        return tx.hash;
      });
    },
    async mine(blocks = 1) {
      if (!Number.isInteger(blocks) || blocks < 1) throw new Error('blocks must be a positive integer');
      // One evm_mine per block: hardhat_mine reserves blocks whose parentHash reads as zero, which a
      // watcher following parent hashes takes for a reorg.
      await serial(snapshot);
      for (let i = 0; i < blocks; i++) await provider.send('evm_mine', []);
      return provider.getBlockNumber();
    },
    reorg(depth, keepTransactions = false) {
      if (keepTransactions) throw new Error('the devnet cannot keep the transactions of a reorg');
      return serial(async () => {
        const latest = await provider.getBlockNumber();
        const block = await provider.getBlock(latest);
        const target = latest - depth;
        const index = snapshots.findLastIndex((s) => s.height <= target);
        const at = snapshots[index];
        if (!at) throw new Error(`no snapshot at or below height ${target}`);
        await provider.send('evm_revert', [at.id]);
        // A reverted snapshot is used up, and so are the later ones.
        snapshots.splice(index);
        let time = (block?.timestamp ?? 0) + 1;
        for (let height = at.height; height < latest; height++) {
          await provider.send('evm_mine', [time++]);
        }
        return provider.getBlockNumber();
      });
    },
    deployToken,
    mintToken,
    async stop() {
      provider.destroy();
      // Clients (the chain adapter's provider among them) keep connections alive; close() would wait for them.
      (
        server as unknown as { _httpServer: { closeAllConnections(): void } }
      )._httpServer.closeAllConnections();
      await server.close();
    },
  };
}
