import { base64, hex } from '@scure/base';
import { Address, NETWORK, OutScript, p2wpkh, TEST_NETWORK, Transaction } from '@scure/btc-signer';
import type { SigningPurpose, WalletKey } from '../../adapters/chains/signing.ts';
import type { Scheme, SignerKeys } from './keys.ts';
import { type ChainRules, type Intent, PolicyRefusal, type SigningPolicy } from './policy.ts';

/** Regtest's address parameters (segwit prefix `bcrt`); scure knows main and test. */
const REGTEST = { ...TEST_NETWORK, bech32: 'bcrt' };
const NETWORKS = [NETWORK, TEST_NETWORK, REGTEST];

/** An address's output script as hex on whichever Bitcoin network it belongs to, or null. */
function scriptOf(address: string): string | null {
  for (const network of NETWORKS) {
    try {
      return hex.encode(OutScript.encode(Address(network).decode(address)));
    } catch {
      // Not an address of this network: try the next.
    }
  }
  return null;
}

export interface BitcoinSignRequest {
  network: string;
  scheme: Scheme;
  purpose: SigningPurpose;
  psbt: string;
  keys: WalletKey[];
}

/**
 * Signs a PSBT of P2WPKH inputs. What it does is read from the PSBT: each input's `witnessUtxo` must be the output
 * script of the key named for it (so the key and the coins match), the outputs to our hot wallet's script count as
 * ours, every other output is a payment the policy must allow, and the fee is inputs minus outputs.
 */
export async function signBitcoin(keys: SignerKeys, policy: SigningPolicy, request: BitcoinSignRequest) {
  if (request.scheme.purpose !== 84 || (request.scheme.coinType !== 0 && request.scheme.coinType !== 1))
    throw new PolicyRefusal('signer.key.unknown_scheme');
  let tx: Transaction;
  try {
    tx = Transaction.fromPSBT(base64.decode(request.psbt));
  } catch {
    throw new PolicyRefusal('signer.transaction.undecodable');
  }
  if (tx.inputsLength === 0 || tx.inputsLength !== request.keys.length)
    throw new PolicyRefusal('signer.transaction.keys_mismatch');
  const scriptOfKey = (key: Pick<WalletKey, 'account' | 'index'>) =>
    hex.encode(p2wpkh(keys.publicKey(request.scheme, key)).script);
  const hotScript = scriptOfKey({ account: 1, index: 0 });
  const fromAccounts = new Set<number>();
  let inputs = 0n;
  for (let i = 0; i < tx.inputsLength; i++) {
    const utxo = tx.getInput(i).witnessUtxo;
    const key = request.keys[i] as WalletKey;
    if (!utxo || hex.encode(utxo.script) !== scriptOfKey(key))
      throw new PolicyRefusal('signer.transaction.keys_mismatch');
    fromAccounts.add(key.account);
    inputs += utxo.amount;
  }
  const payments: Intent['payments'] = [];
  let toHot = 0n;
  let outputs = 0n;
  for (let i = 0; i < tx.outputsLength; i++) {
    const output = tx.getOutput(i);
    if (!output.script || output.amount === undefined)
      throw new PolicyRefusal('signer.transaction.undecodable');
    outputs += output.amount;
    const script = hex.encode(output.script);
    if (script === hotScript) toHot += output.amount;
    else payments.push({ destination: script, amount: output.amount });
  }
  if (outputs > inputs) throw new PolicyRefusal('signer.transaction.undecodable');
  const rules: ChainRules = {
    canonical: scriptOf,
    depositAddress: (index) =>
      Address(NETWORK).encode(OutScript.decode(hex.decode(scriptOfKey({ account: 0, index })))),
  };
  const intent: Intent = {
    network: request.network,
    purpose: request.purpose,
    currency: 'btc',
    nativeCurrency: 'btc',
    fromAccounts,
    payments,
    toHot,
    fee: inputs - outputs,
  };
  await policy.approve(intent, rules, tx.id);
  request.keys.forEach((key, i) => {
    tx.signIdx(keys.privateKey(request.scheme, key), i);
  });
  tx.finalize();
  return { hex: tx.hex, txid: tx.id };
}
