import { encodeTronAddress, validateAddress } from '@exchange/shared';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type pg from 'pg';
import type { SigningPurpose, TronUnsignedTransaction, WalletKey } from '../../adapters/chains/signing.ts';
import { decodeTronRawData } from '../../adapters/chains/tron/transaction.ts';
import type { Scheme, SignerKeys } from './keys.ts';
import { type ChainRules, type Intent, PolicyRefusal, type SigningPolicy } from './policy.ts';
import { tokenAt } from './repository.ts';

/** `transfer(address,uint256)`: the only contract call the signer signs. */
const TRANSFER_SELECTOR = 'a9059cbb';
/** The bandwidth a TRX transfer may burn at most (it is about 0.27 TRX when the free bandwidth is spent). */
const TRX_TRANSFER_FEE_BOUND = 1_000_000n;

export interface TronSignRequest {
  network: string;
  scheme: Scheme;
  nativeCurrency: string;
  purpose: SigningPurpose;
  transaction: TronUnsignedTransaction;
  key: WalletKey;
}

/** The TRON address of a compressed public key: 0x41 ‖ last 20 bytes of keccak256 of the uncompressed key. */
export function tronAddressOf(publicKey: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return encodeTronAddress(keccak_256(uncompressed.subarray(1)).subarray(12));
}

/**
 * Signs a transaction a TRON node built. The signer reads raw_data itself: the txID must be its sha256, the owner
 * the key's address, and the one contract either a TRX transfer or a TRC-20 `transfer` of a token the network
 * carries, with no TRX attached; its fee bound is the fee_limit.
 */
export async function signTron(
  db: pg.Pool,
  keys: SignerKeys,
  policy: SigningPolicy,
  request: TronSignRequest,
) {
  if (request.scheme.purpose !== 44 || request.scheme.coinType !== 195)
    throw new PolicyRefusal('signer.key.unknown_scheme');
  const raw = hexToBytes(request.transaction.raw_data_hex);
  const txid = bytesToHex(sha256(raw));
  if (txid !== request.transaction.txID.toLowerCase())
    throw new PolicyRefusal('signer.transaction.txid_mismatch');
  let data: ReturnType<typeof decodeTronRawData>;
  try {
    data = decodeTronRawData(request.transaction.raw_data_hex);
  } catch {
    throw new PolicyRefusal('signer.transaction.undecodable');
  }
  const owner = tronAddressOf(keys.publicKey(request.scheme, request.key));
  if (data.owner !== owner || request.key.address !== owner)
    throw new PolicyRefusal('signer.transaction.keys_mismatch');
  const hot = tronAddressOf(keys.publicKey(request.scheme, { account: 1, index: 0 }));
  let currency = request.nativeCurrency;
  let recipient: string;
  let amount: bigint;
  let fee: bigint;
  if (data.type === 'TransferContract') {
    recipient = data.to;
    amount = data.amount;
    fee = TRX_TRANSFER_FEE_BOUND;
  } else if (data.type === 'TriggerSmartContract') {
    const token = await tokenAt(db, request.network, data.contract, false);
    const call = data.data.toLowerCase();
    if (!token || data.callValue !== 0n || !call.startsWith(TRANSFER_SELECTOR) || call.length !== 8 + 128)
      throw new PolicyRefusal('signer.tron.call_not_allowed');
    const addressWord = call.slice(8, 72);
    if (!/^0{24}/.test(addressWord)) throw new PolicyRefusal('signer.tron.call_not_allowed');
    currency = token;
    recipient = encodeTronAddress(hexToBytes(addressWord.slice(24)));
    amount = BigInt(`0x${call.slice(72)}`);
    fee = data.feeLimit;
  } else {
    throw new PolicyRefusal('signer.tron.contract_not_allowed');
  }
  const toHot = recipient === hot;
  const intent: Intent = {
    network: request.network,
    purpose: request.purpose,
    currency,
    nativeCurrency: request.nativeCurrency,
    fromAccounts: new Set([request.key.account]),
    payments: toHot ? [] : [{ destination: recipient, amount }],
    toHot: toHot ? amount : 0n,
    fee,
  };
  const rules: ChainRules = {
    canonical: (address) => validateAddress('tron', address),
    depositAddress: (index) => tronAddressOf(keys.publicKey(request.scheme, { account: 0, index })),
  };
  await policy.approve(intent, rules, txid);
  const signature = secp256k1.sign(sha256(raw), keys.privateKey(request.scheme, request.key), {
    prehash: false,
    format: 'recovered',
  });
  // noble gives recovery ‖ r ‖ s; TRON wants r ‖ s ‖ v with v = recovery + 27.
  const out = new Uint8Array(65);
  out.set(signature.subarray(1), 0);
  out[64] = (signature[0] ?? 0) + 27;
  return { signature: bytesToHex(out) };
}
