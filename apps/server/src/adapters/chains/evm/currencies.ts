import { getAddress, isAddress } from 'ethers';

/** Ether itself: always 18 decimals on the chain. */
export interface EvmNativeCurrency {
  currency: string;
  precision: number;
  native: true;
}

/** An ERC-20 token, known by its contract address only: a token with the same symbol elsewhere is not it. */
export interface EvmTokenCurrency {
  currency: string;
  precision: number;
  contract: string;
  decimals: number;
}

export type EvmCurrency = EvmNativeCurrency | EvmTokenCurrency;

/** The currencies of one network, checked once and indexed by code and by contract address. */
export interface EvmCurrencies {
  native: EvmNativeCurrency | null;
  /** Key: lower-case contract address. */
  tokensByContract: Map<string, EvmTokenCurrency>;
  get(currency: string): EvmCurrency;
}

export const NATIVE_DECIMALS = 18;

/** Validates the configuration (one native at most, real contract addresses, no duplicates) and indexes it. */
export function indexCurrencies(list: EvmCurrency[]): EvmCurrencies {
  let native: EvmNativeCurrency | null = null;
  const byCode = new Map<string, EvmCurrency>();
  const tokensByContract = new Map<string, EvmTokenCurrency>();
  for (const entry of list) {
    if (byCode.has(entry.currency)) throw new Error(`currency ${entry.currency} listed twice`);
    if (!isUnitCount(entry.precision)) throw new Error(`bad precision for ${entry.currency}`);
    byCode.set(entry.currency, entry);
    if ('native' in entry) {
      if (native) throw new Error('only one native currency per network');
      native = entry;
      continue;
    }
    if (!isAddress(entry.contract)) throw new Error(`bad contract address for ${entry.currency}`);
    if (!isUnitCount(entry.decimals)) throw new Error(`bad decimals for ${entry.currency}`);
    const contract = getAddress(entry.contract).toLowerCase();
    if (tokensByContract.has(contract)) throw new Error(`contract ${entry.contract} listed twice`);
    tokensByContract.set(contract, entry);
  }
  return {
    native,
    tokensByContract,
    get(currency) {
      const found = byCode.get(currency);
      if (!found) throw new Error(`currency ${currency} is not carried by this network`);
      return found;
    },
  };
}

function isUnitCount(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 77;
}
