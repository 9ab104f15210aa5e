import type pg from 'pg';
import { createEvmChain, type EvmCurrency } from '../../adapters/chains/evm/adapter.ts';
import type { EvmDevnet } from '../../adapters/chains/evm/devnet.ts';
import type { SignerPort } from '../../adapters/chains/signing.ts';
import type { ChainFactory, DevTools } from './chains.ts';
import { erc20Contracts, recordEndpoint, recordedEndpoint, setErc20Contract } from './networks-repository.ts';

/** Where the EVM networks come from: an external node, an in-process Hardhat devnet, or nowhere. */
export interface EvmSettings {
  rpcUrl: string | undefined;
  chainId: number;
  /** Start an in-process devnet when there is no `rpcUrl` (development and the demo). */
  devnet: boolean;
}

/**
 * Builds the `evm` chain factory. With a devnet, the TestUSDT contract it deploys becomes the network's USDT
 * (recorded in `currency_networks.contract_address`, the only token contract whose transfers are credited).
 */
export function evmChainFactory(db: pg.Pool, settings: EvmSettings, signer: SignerPort, startDevnet = true) {
  let devnet: EvmDevnet | undefined;
  const factory: ChainFactory = async (key, client, currencies) => {
    if (client !== 'evm') return null;
    if (!settings.rpcUrl && !settings.devnet) return null;
    let rpcUrl = settings.rpcUrl;
    let chainId = settings.chainId;
    if (!rpcUrl && !startDevnet) {
      // Another process runs the devnet (the one process, seen from the command line): read it where it is.
      rpcUrl = await recordedEndpoint(db, key);
      if (!rpcUrl) return null;
    } else if (!rpcUrl) {
      // Hardhat is a development dependency: loaded only when a devnet is asked for (never in production).
      devnet ??= await (await import('../../adapters/chains/evm/devnet.ts')).startEvmDevnet();
      rpcUrl = devnet.rpcUrl;
      chainId = devnet.chainId;
      await setErc20Contract(db, key, devnet.usdtAddress);
      await recordEndpoint(db, key, rpcUrl);
    }
    const tokens = await erc20Contracts(db, key);
    const contractOf = new Map(tokens.map((r) => [r.currency_id, r.contract_address]));
    const evmCurrencies = Object.entries(currencies).flatMap(([currency, precision]): EvmCurrency[] => {
      const contract = contractOf.get(currency);
      if (contract === undefined) return [{ currency, precision, native: true as const }];
      return contract ? [{ currency, precision, contract, decimals: precision }] : [];
    });
    const chain = createEvmChain({ key, rpcUrl, chainId, currencies: evmCurrencies, signer });
    const dev: DevTools | null = devnet
      ? {
          faucet: async (address, currency, amount) => {
            if (currency !== 'eth' && currency !== 'usdt') throw new Error(`the devnet has no ${currency}`);
            return (devnet as EvmDevnet).faucet(address, currency, amount);
          },
          mine: (blocks) => (devnet as EvmDevnet).mine(blocks),
          reorg: (depth, keepTransactions) => (devnet as EvmDevnet).reorg(depth, keepTransactions),
        }
      : null;
    return { chain, dev };
  };
  return { factory, devnet: () => devnet, stop: async () => devnet?.stop() };
}
