import {
  formatUnits,
  type InternalTransferInput,
  parseUnits,
  recipientKind,
  TRANSFER_ERRORS,
  WALLET_ERRORS,
  withdrawMinimum,
} from '@exchange/shared';
import { AppError, invalid } from '../../http/errors.ts';
import { DEFAULT_TRAVEL_RULE } from '../compliance/travel-rule/config.ts';
import { travelRuleForInternal } from '../compliance/travel-rule/withdrawal-check.ts';
import {
  beginAttempt,
  failAttempt,
  type LockoutDeps,
  lockoutKey,
  releaseAttempt,
} from '../identity/lockout.ts';
import { verifyPassword } from '../identity/passwords.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { addressOwner } from './addresses.ts';
import {
  activeUserIdByEmail,
  activeUserIdsByPhoneDigits,
  isActiveUser,
  type TransferNetworkRow,
  transferNetworks,
} from './transfers-repository.ts';
import { placeWithdrawal, requireWithdrawPermission, type WithdrawDeps } from './withdrawals.ts';

/** The user a transfer goes to, and the network its records are kept under. */
interface Recipient {
  userId: number;
  network: TransferNetworkRow;
  /** How the sender named the recipient, normalised: what both histories show. */
  label: string;
}

/**
 * A transfer to another user of the exchange, named by email, confirmed phone number or deposit address (FAQ),
 * confirmed with the account password. It is an internal withdrawal: no fee, the minimum withdrawal alone
 * (docs/wallet.md#validation), settled at once unless staff review holds it, with a deposit record on the receiver's side.
 *
 * The sender must be allowed to withdraw (level 3, 2FA on, no 24-hour hold). The password is checked before the
 * recipient is looked up, and every wrong one counts against the account like a failed login, so nobody can
 * probe which emails or phones have accounts without the password, nor without limit with it; an unknown,
 * inactive or ambiguous recipient gets one answer whatever the reason, and nothing about the recipient (name,
 * uid, level) is ever returned.
 */
export async function createTransfer(
  deps: WithdrawDeps,
  user: UserRecord,
  input: InternalTransferInput,
): Promise<number> {
  const { db } = deps;
  await requireWithdrawPermission(deps, user);
  const networks = await transferNetworks(db, input.currency, input.blockchain_key ?? null);
  const precision = networks[0]?.precision;
  if (precision === undefined)
    throw invalid(input.blockchain_key ? WALLET_ERRORS.networkNotFound : WALLET_ERRORS.currencyNotFound);
  const parsed = parseUnits(input.amount, precision);
  if (!parsed.ok || parsed.units <= 0n) throw invalid(WALLET_ERRORS.amountInvalid);
  const amount = parsed.units;

  await checkPassword(deps, user, input.password);
  const recipient = await findRecipient(deps, input.recipient, networks);
  if (!recipient) throw invalid(TRANSFER_ERRORS.recipientNotFound);
  if (recipient.userId === Number(user.id)) throw invalid(TRANSFER_ERRORS.selfTransfer);
  if (!recipient.network.withdraw_enabled) throw invalid(WALLET_ERRORS.withdrawDisabled);
  const minimum = withdrawMinimum(recipient.network, precision, true);
  if (amount < minimum) {
    throw new AppError(422, [WALLET_ERRORS.amountTooSmall], {
      details: { min: formatUnits(minimum, precision), currency: input.currency },
    });
  }
  if (deps.core.sequencer.state.balance(Number(user.id), input.currency).balance < amount)
    throw invalid(WALLET_ERRORS.insufficientBalance);
  // Both are our verified customers: the record names both from their profiles (nothing to send anywhere).
  const travelRule = await travelRuleForInternal(
    { db, config: deps.travelRule ?? DEFAULT_TRAVEL_RULE },
    user,
    recipient.userId,
  );
  return placeWithdrawal(deps, user, {
    currency: input.currency,
    blockchainKey: recipient.network.blockchain_key,
    beneficiaryId: null,
    rid: recipient.label,
    memo: null,
    amount,
    fee: 0n,
    precision,
    recipient: recipient.userId,
    travelRule,
  });
}

/** The account password, counted like a login: a wrong one is a failure, the fifth blocks the account. */
async function checkPassword(deps: LockoutDeps, user: UserRecord, password: string): Promise<void> {
  const key = lockoutKey(user.id, '');
  const attempt = await beginAttempt(deps, key);
  if (!(await verifyPassword(user.password_digest, password))) {
    await failAttempt(deps, key, attempt);
    throw invalid(TRANSFER_ERRORS.passwordInvalid);
  }
  await releaseAttempt(deps, key);
}

/**
 * The active user named by `recipient`: by email (any case), by a confirmed phone number (its digits, however
 * spelt), or by a deposit address on one of the currency's networks (that network then keeps the records).
 * Null when there is none, or when a phone number is confirmed on more than one account.
 */
async function findRecipient(
  deps: WithdrawDeps,
  recipient: string,
  networks: TransferNetworkRow[],
): Promise<Recipient | null> {
  const { db } = deps;
  const kind = recipientKind(recipient);
  // Email and phone transfers keep their records under the currency's first network that is open.
  const open = networks.find((n) => n.withdraw_enabled) ?? (networks[0] as TransferNetworkRow);
  if (kind === 'email') {
    const email = recipient.toLowerCase();
    const id = await activeUserIdByEmail(db, email);
    return id !== undefined ? { userId: Number(id), network: open, label: email } : null;
  }
  if (kind === 'phone') {
    const digits = recipient.replace(/\D/g, '');
    const ids = await activeUserIdsByPhoneDigits(db, digits);
    return ids.length === 1 ? { userId: Number(ids[0]), network: open, label: `+${digits}` } : null;
  }
  for (const network of networks) {
    const address = deps.chains.get(network.blockchain_key)?.chain.normalizeAddress(recipient);
    if (!address) continue;
    const owner = await addressOwner(db, network.blockchain_key, address);
    if (owner === null) continue;
    return (await isActiveUser(db, owner)) ? { userId: owner, network, label: address } : null;
  }
  return null;
}
