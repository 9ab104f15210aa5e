import { validateAddress } from '@exchange/shared';
import { computeAddress, getAddress, hexlify, Interface, Transaction, Wallet } from 'ethers';
import type pg from 'pg';
import type { EvmTransactionRequest, SigningPurpose, WalletKey } from '../../adapters/chains/signing.ts';
import type { Scheme, SignerKeys } from './keys.ts';
import { type ChainRules, type Intent, PolicyRefusal, type SigningPolicy } from './policy.ts';
import { tokenAt } from './repository.ts';

const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

export interface EvmSignRequest {
  network: string;
  scheme: Scheme;
  nativeCurrency: string;
  purpose: SigningPurpose;
  transaction: EvmTransactionRequest;
  key: WalletKey;
}

/**
 * Signs an EIP-1559 transaction. Ether to an address is a native payment; a call is allowed only as an ERC-20
 * `transfer` of a token the network carries (its contract in `currency_networks`) with no ether attached. The fee
 * is at most gas limit × max fee per gas; the chain id must be the network's when the signer is told it.
 */
export async function signEvm(
  db: pg.Pool,
  keys: SignerKeys,
  policy: SigningPolicy,
  chainIds: Map<string, bigint>,
  request: EvmSignRequest,
) {
  if (request.scheme.purpose !== 44 || request.scheme.coinType !== 60)
    throw new PolicyRefusal('signer.key.unknown_scheme');
  const t = request.transaction;
  let tx: Transaction;
  try {
    tx = Transaction.from({
      type: 2,
      to: getAddress(t.to),
      value: BigInt(t.value),
      data: t.data,
      nonce: t.nonce,
      gasLimit: BigInt(t.gasLimit),
      maxFeePerGas: BigInt(t.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas),
      chainId: BigInt(t.chainId),
    });
  } catch {
    throw new PolicyRefusal('signer.transaction.undecodable');
  }
  const expectedChain = chainIds.get(request.network);
  if (expectedChain !== undefined && tx.chainId !== expectedChain)
    throw new PolicyRefusal('signer.evm.wrong_chain');
  const privateKey = keys.privateKey(request.scheme, request.key);
  const from = computeAddress(hexlify(keys.publicKey(request.scheme, request.key)));
  if (from !== getAddress(request.key.address)) throw new PolicyRefusal('signer.transaction.keys_mismatch');
  const hot = computeAddress(hexlify(keys.publicKey(request.scheme, { account: 1, index: 0 })));
  let currency = request.nativeCurrency;
  let recipient = tx.to as string;
  let amount = tx.value;
  if (tx.data !== '0x') {
    const token = await tokenAt(db, request.network, tx.to, true);
    if (!token || tx.value !== 0n) throw new PolicyRefusal('signer.evm.call_not_allowed');
    let decoded: ReturnType<Interface['decodeFunctionData']>;
    try {
      decoded = ERC20.decodeFunctionData('transfer', tx.data);
    } catch {
      throw new PolicyRefusal('signer.evm.call_not_allowed');
    }
    currency = token;
    recipient = getAddress(String(decoded[0]));
    amount = BigInt(decoded[1]);
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
    fee: (tx.gasLimit ?? 0n) * (tx.maxFeePerGas ?? 0n),
  };
  const rules: ChainRules = {
    canonical: (address) => validateAddress('evm', address),
    depositAddress: (index) => computeAddress(hexlify(keys.publicKey(request.scheme, { account: 0, index }))),
  };
  await policy.approve(intent, rules, tx.unsignedHash);
  const raw = await new Wallet(hexlify(privateKey)).signTransaction(tx);
  return { raw, txid: Transaction.from(raw).hash as string };
}
