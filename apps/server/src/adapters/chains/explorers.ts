/**
 * The public block explorers of well-known chains, as link templates with Peatio's placeholders `#{txid}` and
 * `#{address}` (what `blockchains.explorer_transaction` and `explorer_address` hold).
 *
 * A chain that nobody else can see (the built-in Bitcoin and TRON simulators, a local EVM devnet, regtest) has
 * no public explorer, and none is made up for it: its templates stay null and no link is shown.
 */
export interface ExplorerTemplates {
  transaction: string;
  address: string;
}

const templates = (base: string, tx: string, address: string): ExplorerTemplates => ({
  transaction: `${base}${tx}#{txid}`,
  address: `${base}${address}#{address}`,
});

/** mempool.space, by Bitcoin Core's `getblockchaininfo` chain name. */
const BITCOIN: Record<string, string> = {
  main: 'https://mempool.space/',
  test: 'https://mempool.space/testnet/',
  testnet4: 'https://mempool.space/testnet4/',
  signet: 'https://mempool.space/signet/',
};

/** Etherscan, by EIP-155 chain id. */
const EVM: Record<number, string> = {
  1: 'https://etherscan.io/',
  11155111: 'https://sepolia.etherscan.io/',
  17000: 'https://holesky.etherscan.io/',
};

/** Tronscan, by the host of the TronGrid API the adapter talks to. */
const TRON: Record<string, string> = {
  'api.trongrid.io': 'https://tronscan.org/#/',
  'api.shasta.trongrid.io': 'https://shasta.tronscan.org/#/',
  'nile.trongrid.io': 'https://nile.tronscan.org/#/',
};

/** The explorer of a Bitcoin chain (`main`, `test`, `testnet4`, `signet`); null for `regtest` and the simulator. */
export function bitcoinExplorer(chain: string): ExplorerTemplates | null {
  const base = BITCOIN[chain];
  return base ? templates(base, 'tx/', 'address/') : null;
}

/** The explorer of an EVM chain by id (mainnet, Sepolia, Holesky); null for a devnet (31337) or an unknown id. */
export function evmExplorer(chainId: number): ExplorerTemplates | null {
  const base = EVM[chainId];
  return base ? templates(base, 'tx/', 'address/') : null;
}

/**
 * The explorer of the TRON network behind a TronGrid URL (mainnet, Shasta, Nile); null for the simulator or a
 * node of its own, whose network cannot be told from its address.
 */
export function tronExplorer(apiUrl: string): ExplorerTemplates | null {
  let host: string;
  try {
    host = new URL(apiUrl).hostname;
  } catch {
    return null;
  }
  const base = TRON[host];
  return base ? templates(base, 'transaction/', 'address/') : null;
}
