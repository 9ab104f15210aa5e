import { randomInt } from 'node:crypto';
import {
  type BeneficiaryItem,
  type BeneficiaryListQuery,
  type CreateBeneficiaryInput,
  ERRORS,
  PIN_LENGTH,
  splitMemo,
  WALLET_ERRORS,
} from '@exchange/shared';
import type pg from 'pg';
import { type MailPort, SECRET, withSecret } from '../../adapters/mail/port.ts';
import { type Clock, dateOf } from '../../clock.ts';
import type { Keyset } from '../../db/keyset.ts';
import { type Tx, withTransaction } from '../../db/pool.ts';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import { resolveBeneficiaryInfo } from '../compliance/travel-rule/beneficiary-info.ts';
import type { TravelRuleConfig } from '../compliance/travel-rule/config.ts';
import { hashCode, type ServerKeys, safeEqual } from '../identity/crypto.ts';
import { phishingLine } from '../identity/notify.ts';
import type { RequestOrigin } from '../identity/registration.ts';
import { recordActivity, type UserRecord } from '../identity/users-repository.ts';
import {
  activatePendingBeneficiary,
  type BeneficiaryRow,
  beneficiariesPage,
  beneficiaryNetworkKey,
  beneficiaryOf,
  beneficiaryRowsAfter,
  beneficiaryWithInternal,
  countPinTry,
  deleteUserBeneficiary,
  insertBeneficiary,
  isVisibleCurrency,
  setBeneficiaryPin,
} from './beneficiaries-repository.ts';
import type { ChainRegistry } from './chains.ts';
import { checkTotp } from './totp-check.ts';

/** Pin lifetime, the gap between two sends, and wrong tries allowed per pin. */
export const PIN_POLICY = { ttlMinutes: 10, resendSeconds: 60, maxAttempts: 5 } as const;

export interface BeneficiaryDeps {
  db: pg.Pool;
  keys: ServerKeys;
  mail: MailPort;
  chains: ChainRegistry;
  /**
   * The app's clock (clock.ts): authenticator codes, removal-mail gaps and the emailed pin's resend gap and
   * expiry are measured on it.
   */
  clock: Clock;
  /** The provider directory a saved address may name (travel rule); the defaults when not given. */
  travelRule?: Pick<TravelRuleConfig, 'providers'>;
}

/** The wire shape (docs/wallet.md#data Beneficiary). */
export function beneficiaryEntity(row: BeneficiaryRow): BeneficiaryItem {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    currency: row.currency_id,
    blockchain_key: row.blockchain_key,
    state: row.state,
    data: row.memo ? { address: row.address, memo: row.memo } : { address: row.address },
    created_at: row.created_at.toISOString(),
    internal: row.internal === true,
    uid: row.uid ?? '',
    sent_at: row.pin_sent_at ? row.pin_sent_at.toISOString() : null,
    beneficiary_name: row.beneficiary_name ?? null,
    hosting: row.hosting ?? null,
    provider:
      row.provider_id && row.provider_name
        ? { id: row.provider_id, name: row.provider_name, lei: row.provider_lei ?? null }
        : null,
    ownership_proved_at: row.ownership_proved_at ? row.ownership_proved_at.toISOString() : null,
  };
}

/**
 * The user's beneficiaries, newest first, filtered as Peatio 2.6 does: `currency` must be a visible currency
 * (else 422 `account.currency.doesnt_exist`), the raw `currency_id` filters unchecked (`currency` wins), and
 * `state` and `blockchain_key` narrow further; one page of them, and how many match.
 */
export async function listBeneficiaries(
  db: pg.Pool,
  userId: string,
  filter: BeneficiaryListQuery,
): Promise<{ items: BeneficiaryItem[]; total: number }> {
  if (filter.currency !== undefined) {
    if (!(await isVisibleCurrency(db, filter.currency))) throw invalid(WALLET_ERRORS.currencyNotFound);
  }
  const { total, rows } = await beneficiariesPage(
    db,
    {
      userId,
      currency: filter.currency ?? filter.currency_id ?? null,
      blockchainKey: filter.blockchain_key ?? null,
      state: filter.state ?? null,
    },
    filter.limit,
    (filter.page - 1) * filter.limit,
  );
  return { items: rows.map(beneficiaryEntity), total };
}

/** A {@link Keyset} page of all the user's beneficiaries, oldest first, in the list's shape (the data export). */
export async function beneficiariesAfter(
  db: pg.Pool,
  userId: string,
  page: Keyset,
): Promise<BeneficiaryItem[]> {
  return (await beneficiaryRowsAfter(db, userId, page)).map(beneficiaryEntity);
}

/** One of the user's beneficiaries in the list's shape; another user's, or an unknown id, is "not found" (404). */
export async function getBeneficiary(db: pg.Pool, userId: string, id: number): Promise<BeneficiaryItem> {
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
  const row = await beneficiaryWithInternal(db, userId, id);
  if (!row) throw notFound();
  return beneficiaryEntity(row);
}

/** One of the user's beneficiaries; another user's is "not found". */
export async function findBeneficiary(db: pg.Pool, userId: string, id: number): Promise<BeneficiaryRow> {
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
  const row = await beneficiaryOf(db, userId, id);
  if (!row) throw notFound();
  return row;
}

/** Saves a new address as pending and emails the activation pin. */
export async function createBeneficiary(
  deps: BeneficiaryDeps,
  user: UserRecord,
  input: CreateBeneficiaryInput,
  origin: RequestOrigin,
): Promise<BeneficiaryItem> {
  const network = await networkOf(deps, input.currency, input.blockchain_key);
  const { address: raw, memo } = splitMemo(input.data.address);
  const address = network.chain.normalizeAddress(raw);
  if (!address) throw invalid(WALLET_ERRORS.beneficiaryAddressInvalid);
  const info = resolveBeneficiaryInfo(deps.travelRule, input);
  const row = await withTransaction(deps.db, async (tx) => {
    const created = await insertBeneficiary(tx, {
      userId: user.id,
      currency: input.currency,
      blockchainKey: network.key,
      name: input.name,
      description: input.description ?? '',
      address,
      memo,
      beneficiaryName: info.beneficiaryName,
      hosting: info.hosting,
      providerId: info.provider?.id ?? null,
      providerName: info.provider?.name ?? null,
      providerLei: info.provider?.lei ?? null,
    });
    if (!created) throw invalid(WALLET_ERRORS.beneficiaryDuplicate);
    await recordBeneficiaryActivity(tx, user.id, 'beneficiary.create', created, origin);
    return created;
  });
  const sentAt = await sendPin(deps, user, row, false);
  return beneficiaryEntity({ ...row, pin_sent_at: sentAt });
}

/** Sends a new pin; refused within a minute of the previous one ("Please wait for one minute"). */
export async function resendPin(deps: BeneficiaryDeps, user: UserRecord, id: number): Promise<void> {
  const row = await findBeneficiary(deps.db, user.id, id);
  if (row.state === 'active') throw invalid(WALLET_ERRORS.beneficiaryAlreadyActive);
  await sendPin(deps, user, row, true);
}

/** Mails a fresh pin; returns when it was sent. */
async function sendPin(
  deps: BeneficiaryDeps,
  user: UserRecord,
  row: BeneficiaryRow,
  resend: boolean,
): Promise<Date> {
  const pin = String(randomInt(0, 10 ** PIN_LENGTH)).padStart(PIN_LENGTH, '0');
  const sentAt = await setBeneficiaryPin(deps.db, row.id, pinHash(deps.keys, row.id, pin), {
    ttlMinutes: PIN_POLICY.ttlMinutes,
    resend,
    resendSeconds: PIN_POLICY.resendSeconds,
    at: dateOf(deps.clock),
  });
  if (sentAt === undefined) throw invalid(WALLET_ERRORS.pinTooSoon);
  await deps.mail.send({
    to: user.email,
    template: 'beneficiary_pin',
    subject: withSecret`Your withdrawal address code: ${SECRET}`,
    text:
      withSecret`Use ${SECRET} to activate the withdrawal address "${row.name}" (${row.currency_id.toUpperCase()}, ${row.blockchain_key}):\n` +
      withSecret`${row.address}\n\nThe code expires in ${PIN_POLICY.ttlMinutes} minutes. If you did not add this address, ` +
      'change your password and contact support.' +
      phishingLine(user.anti_phishing_phrase),
    secret: pin,
  });
  return sentAt;
}

const pinHash = (keys: ServerKeys, id: string, pin: string) => hashCode(keys, `beneficiary:${id}`, pin);

/** Activates with the emailed pin: 5 wrong tries or 10 minutes end a pin. */
export async function activateBeneficiary(
  deps: BeneficiaryDeps,
  userId: string,
  id: number,
  pin: string,
  origin: RequestOrigin,
): Promise<BeneficiaryItem> {
  const row = await findBeneficiary(deps.db, userId, id);
  if (row.state === 'active') throw invalid(WALLET_ERRORS.beneficiaryAlreadyActive);
  const current = await countPinTry(deps.db, row.id, dateOf(deps.clock));
  const pinHashed = current?.pin_hash;
  const usable = pinHashed && current.fresh && current.pin_attempts <= PIN_POLICY.maxAttempts;
  if (!usable || !safeEqual(pinHashed, pinHash(deps.keys, row.id, pin))) {
    throw invalid(WALLET_ERRORS.pinInvalid);
  }
  const activated = await withTransaction(deps.db, async (tx) => {
    const updated = await activatePendingBeneficiary(tx, row.id, dateOf(deps.clock));
    if (!updated) throw invalid(WALLET_ERRORS.beneficiaryAlreadyActive);
    await recordBeneficiaryActivity(tx, userId, 'beneficiary.activate', updated, origin);
    return updated;
  });
  return beneficiaryEntity(activated);
}

/** Deletes with an authenticator code (needs 2FA on). */
export async function deleteBeneficiary(
  deps: BeneficiaryDeps,
  user: UserRecord,
  id: number,
  otp: string,
  origin: RequestOrigin,
): Promise<void> {
  const row = await findBeneficiary(deps.db, user.id, id);
  if (!user.otp) throw new AppError(403, [ERRORS.otpNotEnabled]);
  await checkTotp(deps, user, otp, ERRORS.totpInvalid);
  await withTransaction(deps.db, async (tx) => {
    if (await deleteUserBeneficiary(tx, row.id, user.id))
      await recordBeneficiaryActivity(tx, user.id, 'beneficiary.delete', row, origin);
  });
}

/**
 * The security log's entry for a saved address added, activated or removed (topic `beneficiary`), written in the
 * transaction of the change: which address, on which network, under which name.
 */
export function recordBeneficiaryActivity(
  tx: Tx,
  userId: string,
  action: 'beneficiary.create' | 'beneficiary.activate' | 'beneficiary.delete' | 'beneficiary.prove',
  row: Pick<BeneficiaryRow, 'id' | 'name' | 'currency_id' | 'blockchain_key' | 'address'>,
  origin: RequestOrigin | null,
): Promise<void> {
  return recordActivity(tx, {
    userId,
    action,
    result: 'succeed',
    topic: 'beneficiary',
    ip: origin?.ip ?? null,
    userAgent: origin?.userAgent ?? null,
    data: {
      id: Number(row.id),
      name: row.name,
      currency: row.currency_id,
      blockchain_key: row.blockchain_key,
      address: row.address,
    },
  });
}

/** The network of a currency, or the refusal the spec's screens expect. */
async function networkOf(deps: BeneficiaryDeps, currency: string, key: string | undefined) {
  const networkKey = await beneficiaryNetworkKey(deps.db, currency, key ?? null);
  const network = networkKey !== undefined ? deps.chains.get(networkKey) : undefined;
  if (!network) throw invalid(WALLET_ERRORS.networkNotFound);
  return network;
}
