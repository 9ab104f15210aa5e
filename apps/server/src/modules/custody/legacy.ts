import { Contract, FetchRequest, JsonRpcProvider, Wallet } from 'ethers';
import type pg from 'pg';
import { decrypt, type ServerKeys } from '../identity/crypto.ts';
import { hotWallet } from '../wallet/addresses.ts';
import type { Network } from '../wallet/chains.ts';
import { retireLegacyKey, unretiredLegacyKeys } from './legacy-repository.ts';

const ERC20 = [
  'function balanceOf(address owner) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
];
/** Gas of an ether transfer, and what an ERC-20 transfer may take. */
const ETHER_GAS = 21_000n;
const TOKEN_GAS = 100_000n;

export interface LegacySweepResult {
  /** Addresses emptied and whose key is gone. */
  retired: string[];
  /** Transactions sent, with what they moved (in the chain's units). */
  sent: { network: string; address: string; currency: string; txid: string }[];
  /** Addresses still holding something (a token without ether for its gas): their key stays until then. */
  waiting: { network: string; address: string; reason: string }[];
}

/**
 * Empties the addresses that had a key of their own in earlier versions (`legacy_wallet_keys`, readable by the
 * schema's owner only) into the network's hot wallet, then retires each key: the encrypted secret is deleted and
 * the row keeps when. Run by the operator (`npm run cli -- custody sweep-legacy`) with the owner's connection and
 * `SECRET_KEY`, once after the upgrade; the app never reads these keys. Only EVM networks ever held real coins at
 * such addresses (the simulated Bitcoin and TRON chains of earlier versions were tables, now gone): their keys are
 * retired at once.
 */
export async function sweepLegacyKeys(
  owner: pg.Pool,
  app: pg.Pool,
  keys: ServerKeys,
  networks: readonly Network[],
  rpcUrlOf: (network: string) => Promise<string | undefined>,
  tokensOf: (network: string) => Promise<{ currency: string; contract: string }[]>,
): Promise<LegacySweepResult> {
  const result: LegacySweepResult = { retired: [], sent: [], waiting: [] };
  for (const row of await unretiredLegacyKeys(owner)) {
    const network = networks.find((n) => n.key === row.blockchain_key);
    const rpcUrl = row.client === 'evm' ? await rpcUrlOf(row.blockchain_key) : undefined;
    if (row.client === 'evm') {
      if (!network || !rpcUrl || !row.secret_enc) {
        result.waiting.push({
          network: row.blockchain_key,
          address: row.address,
          reason: 'its node is not reachable',
        });
        continue;
      }
      const hot = await hotWallet(app, network);
      // No cache: the nonce and balances move with each transaction sent here.
      const provider = new JsonRpcProvider(new FetchRequest(rpcUrl), undefined, {
        staticNetwork: true,
        cacheTimeout: -1,
      });
      try {
        const wallet = new Wallet(decrypt(keys, row.secret_enc), provider);
        let left = false;
        for (const token of await tokensOf(row.blockchain_key)) {
          const contract = new Contract(token.contract, ERC20, wallet);
          const balance: bigint = await contract.getFunction('balanceOf')(row.address);
          if (balance === 0n) continue;
          const fees = await provider.getFeeData();
          const gas = TOKEN_GAS * (fees.maxFeePerGas ?? fees.gasPrice ?? 0n);
          if ((await provider.getBalance(row.address)) < gas) {
            result.waiting.push({
              network: row.blockchain_key,
              address: row.address,
              reason: `${token.currency} needs ether for gas`,
            });
            left = true;
            continue;
          }
          const tx = await contract.getFunction('transfer')(hot.address, balance);
          await tx.wait();
          result.sent.push({
            network: row.blockchain_key,
            address: row.address,
            currency: token.currency,
            txid: tx.hash,
          });
        }
        if (!left) {
          const fees = await provider.getFeeData();
          const maxFeePerGas = fees.maxFeePerGas ?? fees.gasPrice ?? 0n;
          const value = (await provider.getBalance(row.address)) - ETHER_GAS * maxFeePerGas;
          if (value > 0n) {
            const tx = await wallet.sendTransaction({
              to: hot.address,
              value,
              gasLimit: ETHER_GAS,
              maxFeePerGas,
              maxPriorityFeePerGas: fees.maxPriorityFeePerGas ?? 0n,
            });
            await tx.wait();
            result.sent.push({
              network: row.blockchain_key,
              address: row.address,
              currency: 'ether',
              txid: tx.hash,
            });
          }
        }
        if (left) continue;
      } finally {
        provider.destroy();
      }
    }
    await retireLegacyKey(owner, row.blockchain_key, row.address);
    result.retired.push(row.address);
  }
  return result;
}
