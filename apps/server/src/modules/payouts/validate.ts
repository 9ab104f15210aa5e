import {
  formatUnits,
  PAYOUT_COLUMNS,
  PAYOUT_ERRORS,
  PAYOUT_LIMITS,
  PAYOUT_ROW_ERRORS,
  parseUnits,
  toUnits,
  withdrawMinimum,
} from '@exchange/shared';
import type pg from 'pg';
import { type Clock, dateOf } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import type { ChainRegistry } from '../wallet/chains.ts';
import type { CsvLine } from './csv.ts';
import {
  activeEmailOwners,
  allNetworks,
  dayLimitRows,
  depositAddressOwners,
  type NetworkRow,
} from './validation-repository.ts';

/** A row that passed every check: what the file stores and later places as a withdrawal. */
export interface CheckedRow {
  line: number;
  currency: string;
  blockchainKey: string;
  /** Canonical address, or the email in lower case. */
  recipient: string;
  /** The account it goes to when it stays on the platform; null for an outside address. */
  internalUserId: number | null;
  /** What the recipient receives, in units. */
  amount: bigint;
  /** The network's withdrawal fee in units (0 internally): the withdrawal holds amount + fee. */
  fee: bigint;
  precision: number;
  reference: string;
}

/** The outcome of checking a file: its rows, or what is wrong with it. */
export interface Checked {
  rows: CheckedRow[];
  /** File-level codes (`account.payout.*`); empty when the file may be stored. */
  errors: string[];
  rowErrors: { row: number; errors: string[] }[];
  shortfall: { currency: string; needed: string; available: string }[];
}

export interface CheckDeps {
  db: pg.Pool;
  core: Core;
  chains: ChainRegistry;
  /** The app's clock (clock.ts): the 24 hours of the daily limit end now on it. */
  clock: Clock;
}

/** Header names accepted for the recipient column (the issue calls it "address or platform email"). */
const RECIPIENT_HEADERS = new Set(['recipient', 'address', 'email', 'address or email', 'address_or_email']);
/** An amount as written in a file: a plain decimal, not longer than any amount we keep. */
const AMOUNT_PATTERN = /^(0|[1-9]\d{0,17})(\.\d{1,18})?$/;
/** Enough of an email to look it up: one `@`, something either side, no blanks. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
/** Rows checked between two yields to the event loop: address checksums are the costly part of a row. */
const ROWS_PER_SLICE = 100;

/**
 * Checks every row of a parsed file (`lines[0]` is the header) against the withdrawal rules: a currency and
 * network with withdrawals on, an address of the network (format and checksum, by the network's adapter) or the
 * email of an active account, an amount with the currency's decimals above the network's minimum withdrawal,
 * the per-withdrawal and 24-hour limits of the payer's level (the rows counted in file order, after the last
 * 24 hours' withdrawals), and the available balance of each currency for the whole file, fees included.
 * Per-row work is a few string checks; the database is asked three times for the whole file, not per row.
 */
export async function checkRows(
  deps: CheckDeps,
  payer: { id: number; level: number },
  lines: CsvLine[],
): Promise<Checked> {
  const result: Checked = { rows: [], errors: [], rowErrors: [], shortfall: [] };
  const header = lines[0]?.fields.map((f) => f.trim().toLowerCase()) ?? [];
  const headerOk =
    header.length === PAYOUT_COLUMNS.length &&
    header.every((name, i) => (i === 2 ? RECIPIENT_HEADERS.has(name) : name === PAYOUT_COLUMNS[i]));
  if (!headerOk) return { ...result, errors: [PAYOUT_ERRORS.headerInvalid] };
  const body = lines.slice(1);
  if (body.length === 0) return { ...result, errors: [PAYOUT_ERRORS.fileEmpty] };
  if (body.length > PAYOUT_LIMITS.maxRows) return { ...result, errors: [PAYOUT_ERRORS.tooManyRows] };

  const networks = new Map<string, NetworkRow>();
  const currencies = new Set<string>();
  for (const n of await allNetworks(deps.db)) {
    networks.set(`${n.currency_id}/${n.blockchain_key}`, n);
    currencies.add(n.currency_id);
  }

  // First pass: the row's own text.
  type Draft = Omit<CheckedRow, 'internalUserId' | 'fee'> & { network: NetworkRow; email: boolean };
  const drafts: Draft[] = [];
  for (const [index, { line, fields }] of body.entries()) {
    if (index > 0 && index % ROWS_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const errors: string[] = [];
    const fail = () => result.rowErrors.push({ row: line, errors });
    if (fields.length !== PAYOUT_COLUMNS.length) {
      errors.push(PAYOUT_ROW_ERRORS.columns);
      fail();
      continue;
    }
    const [currencyText, networkText, recipientText, amountText, referenceText] = fields.map((f) =>
      f.trim(),
    ) as [string, string, string, string, string];
    const currency = currencyText.toLowerCase();
    const network = networks.get(`${currency}/${networkText}`);
    if (!currencies.has(currency)) errors.push(PAYOUT_ROW_ERRORS.currency);
    else if (!network) errors.push(PAYOUT_ROW_ERRORS.network);
    else if (!network.withdraw_enabled) errors.push(PAYOUT_ROW_ERRORS.withdrawDisabled);
    const email = recipientText.includes('@');
    let recipient: string | null = null;
    if (recipientText === '') errors.push(PAYOUT_ROW_ERRORS.recipientRequired);
    else if (email) {
      if (recipientText.length <= PAYOUT_LIMITS.recipientLength && EMAIL_PATTERN.test(recipientText))
        recipient = recipientText.toLowerCase();
      else errors.push(PAYOUT_ROW_ERRORS.recipientNotFound);
    } else if (network) {
      const chain = deps.chains.get(network.blockchain_key)?.chain;
      recipient = recipientText.length <= 128 ? (chain?.normalizeAddress(recipientText) ?? null) : null;
      if (recipient === null) errors.push(PAYOUT_ROW_ERRORS.addressInvalid);
    }
    let amount: bigint | null = null;
    if (AMOUNT_PATTERN.test(amountText) && network) {
      const parsed = parseUnits(amountText, network.precision);
      if (parsed.ok && parsed.units > 0n) amount = parsed.units;
    }
    if (amount === null && (network || !AMOUNT_PATTERN.test(amountText)))
      errors.push(PAYOUT_ROW_ERRORS.amountInvalid);
    if (referenceText.length > PAYOUT_LIMITS.referenceLength) errors.push(PAYOUT_ROW_ERRORS.referenceTooLong);
    if (errors.length > 0 || !network || recipient === null || amount === null) {
      fail();
      continue;
    }
    drafts.push({
      line,
      currency,
      blockchainKey: network.blockchain_key,
      recipient,
      amount,
      precision: network.precision,
      reference: referenceText,
      network,
      email,
    });
  }

  // Second pass: who the recipients are (one query each for the emails and the addresses).
  const emails = [...new Set(drafts.filter((d) => d.email).map((d) => d.recipient))];
  const emailOwners = new Map<string, number>();
  if (emails.length > 0) {
    for (const r of await activeEmailOwners(deps.db, emails)) emailOwners.set(r.email, Number(r.id));
  }
  const addressed = drafts.filter((d) => !d.email);
  const addressOwners = new Map<string, number>();
  if (addressed.length > 0) {
    const owners = await depositAddressOwners(
      deps.db,
      addressed.map((d) => d.blockchainKey),
      addressed.map((d) => d.recipient),
    );
    for (const r of owners) addressOwners.set(`${r.blockchain_key}/${r.address}`, Number(r.user_id));
  }

  const limits = await dayLimits(deps, payer, [...new Set(drafts.map((d) => d.currency))]);
  const spent = new Map<string, bigint>();
  for (const d of drafts) {
    const owner = d.email
      ? (emailOwners.get(d.recipient) ?? null)
      : (addressOwners.get(`${d.blockchainKey}/${d.recipient}`) ?? null);
    const errors: string[] = [];
    if (d.email && owner === null) errors.push(PAYOUT_ROW_ERRORS.recipientNotFound);
    if (owner === payer.id) errors.push(PAYOUT_ROW_ERRORS.selfPayout);
    const internal = owner !== null;
    // The existing withdrawal rules: an outside address pays the network's fee (here on top of the amount), an
    // internal one none; the withdrawal (amount + fee) must reach the minimum withdrawal plus that fee.
    const fee = internal ? 0n : toUnits(d.network.withdraw_fee, d.precision);
    const gross = d.amount + fee;
    if (gross < withdrawMinimum(d.network, d.precision, internal))
      errors.push(PAYOUT_ROW_ERRORS.amountTooSmall);
    const limit = limits.get(d.currency);
    const dayTotal = (spent.get(d.currency) ?? limit?.dayTotal ?? 0n) + gross;
    if (limit?.perWithdrawal != null && gross > limit.perWithdrawal)
      errors.push(PAYOUT_ROW_ERRORS.overWithdrawalLimit);
    else if (limit?.perDay != null && dayTotal > limit.perDay) errors.push(PAYOUT_ROW_ERRORS.overDailyLimit);
    if (errors.length > 0) {
      result.rowErrors.push({ row: d.line, errors });
      continue;
    }
    spent.set(d.currency, dayTotal);
    result.rows.push({
      line: d.line,
      currency: d.currency,
      blockchainKey: d.blockchainKey,
      recipient: d.recipient,
      internalUserId: owner,
      amount: d.amount,
      fee,
      precision: d.precision,
      reference: d.reference,
    });
  }
  result.rowErrors.sort((a, b) => a.row - b.row);
  if (result.rowErrors.length > 0) result.errors.push(PAYOUT_ERRORS.rowsInvalid);
  result.shortfall = shortfall(deps.core, payer.id, result.rows);
  if (result.shortfall.length > 0) result.errors.push(PAYOUT_ERRORS.insufficientBalance);
  return result;
}

/**
 * Per currency, what the rows need (amounts and fees) beyond the payer's available balance now; empty when the
 * balance covers them all.
 */
export function shortfall(
  core: Core,
  payer: number,
  rows: readonly Pick<CheckedRow, 'currency' | 'amount' | 'fee' | 'precision'>[],
): Checked['shortfall'] {
  const needed = new Map<string, { units: bigint; precision: number }>();
  for (const r of rows) {
    const sum = needed.get(r.currency) ?? { units: 0n, precision: r.precision };
    sum.units += r.amount + r.fee;
    needed.set(r.currency, sum);
  }
  const short: Checked['shortfall'] = [];
  for (const [currency, { units, precision }] of needed) {
    const available = core.sequencer.state.balance(payer, currency).balance;
    if (available < units)
      short.push({
        currency,
        needed: formatUnits(units, precision),
        available: formatUnits(available, precision),
      });
  }
  return short;
}

/** The payer's withdrawal limits (of the highest level row not above theirs) and 24-hour totals, per currency. */
async function dayLimits(
  deps: Pick<CheckDeps, 'db' | 'clock'>,
  payer: { id: number; level: number },
  currencies: string[],
): Promise<Map<string, { perWithdrawal: bigint | null; perDay: bigint | null; dayTotal: bigint }>> {
  const limits = new Map<string, { perWithdrawal: bigint | null; perDay: bigint | null; dayTotal: bigint }>();
  if (currencies.length === 0) return limits;
  for (const r of await dayLimitRows(deps.db, payer, currencies, dateOf(deps.clock))) {
    const units = (text: string | null) => (text === null ? null : toUnits(text, r.precision));
    limits.set(r.id, {
      perWithdrawal: units(r.per_withdrawal),
      perDay: units(r.per_day),
      dayTotal: units(r.day_total) ?? 0n,
    });
  }
  return limits;
}
