import {
  CARD_ERRORS,
  CARD_MONEY_ERRORS,
  CARD_TRANSACTION_TYPES,
  type CardTransactionInput,
  cardTransactionSchema,
  fieldErrors,
  formatUnits,
  loadableTopup,
  quickTopup,
  STATEMENT_MAX_DAYS,
  TOPUP_DECIMALS,
  TOPUP_MINIMUM,
  type TopupItem,
  topupFee,
} from '@exchange/shared';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client.ts';
import { SCALE, units } from '../../components/format.tsx';
import { cardCodeText, cardErrorCode } from './format.ts';

/**
 * Pure helpers of the card money screens (docs/cards.md#states, #validation, #constants): top-up amounts in exact bigint units, the
 * client checks of a top up, the statement's default dates and its row labels. No JS number holds an amount.
 */

/** USDT amounts of the top-up form as bigint units at {@link TOPUP_DECIMALS}; extra decimals truncated. */
export const topupUnits = (text: string | null | undefined): bigint => units(text, TOPUP_DECIMALS);

/**
 * A quick button's amount (docs/cards.md#validation, issue 32): `percent` % of what can actually be loaded now, the smallest of
 * the spot USDT balance less the fee, the day's remaining limit and the room under the load limit (card balance
 * and top-ups on their way), floored to 6 decimals. 100 % passes every check of {@link checkTopup}.
 */
export function percentOfLoadable(ctx: TopupContext, feePercent: string, percent: number): string {
  const loadable = loadableTopup({
    spot: topupUnits(ctx.usdtBalance),
    feePercent,
    cardBalance: topupUnits(ctx.cardBalance),
    pending: topupUnits(ctx.pending),
    today: topupUnits(ctx.today),
    dailyLimit: topupUnits(ctx.dailyLimit),
    loadLimit: topupUnits(ctx.loadLimit),
  });
  return formatUnits(quickTopup(loadable, percent), TOPUP_DECIMALS);
}

/**
 * The amount field as typed (docs/cards.md#validation: up to 6 decimals): digits and one dot only, a leading dot gets a 0, more
 * than 6 decimals are refused (the previous value stays). Returns the accepted text.
 */
export function acceptTopupInput(next: string, previous: string): string {
  const text = next.replace(',', '.').trim();
  if (text === '') return '';
  const withZero = text.startsWith('.') ? `0${text}` : text;
  const pattern = new RegExp(`^\\d{0,12}(\\.\\d{0,${TOPUP_DECIMALS}})?$`);
  return pattern.test(withZero) ? withZero : previous;
}

/** What the client checks before a top up. */
export interface TopupContext {
  /** Spot USDT balance (available). */
  usdtBalance: string | undefined;
  /** The card's current balance, in USDT. */
  cardBalance: string | undefined;
  /** USDT of top-ups on their way to the card (`pending_topups`): under the load limit too. */
  pending: string | undefined;
  /** The top-up fee in percent (`topup_fee`), charged on top of the amount. */
  feePercent: string | undefined;
  /** Today's top-ups of the card, in USDT (`total_24h`). */
  today: string | undefined;
  /** Maximum card balance (`load_limit`). */
  loadLimit: string | undefined;
  /** Daily top-up limit (`topup_limit`). */
  dailyLimit: string | undefined;
  /** The card's status; `loss` blocks top up. */
  status: string | undefined;
}

/** A refused top up: the error code and, for the limits, the limit to show. */
export interface TopupProblem {
  code: string;
  limit?: string;
}

/**
 * The client checks of a top up (docs/cards.md#validation), in this order: blocked card, amount missing or malformed, minimum
 * 1 USDT, spot balance (the amount and its fee, as the server checks), maximum card balance (with top-ups on
 * their way), daily limit. Undefined when the amount may be sent.
 */
export function checkTopup(amount: string, ctx: TopupContext): TopupProblem | undefined {
  if (ctx.status === 'loss') return { code: CARD_ERRORS.cardBlocked };
  const text = amount.trim();
  if (!text) return { code: CARD_MONEY_ERRORS.topupAmountRequired };
  if (!/^\d+(\.\d{0,6})?$/.test(text)) return { code: CARD_MONEY_ERRORS.topupAmountInvalid };
  const value = topupUnits(text);
  if (value <= 0n) return { code: CARD_MONEY_ERRORS.topupAmountInvalid };
  if (value < topupUnits(TOPUP_MINIMUM)) return { code: CARD_MONEY_ERRORS.topupBelowMinimum };
  const fee = ctx.feePercent === undefined ? 0n : topupFee(value, ctx.feePercent);
  if (
    ctx.usdtBalance !== undefined &&
    (value + fee) * 10n ** BigInt(SCALE - TOPUP_DECIMALS) > units(ctx.usdtBalance)
  )
    return { code: CARD_MONEY_ERRORS.insufficientBalance };
  const onCard = topupUnits(ctx.cardBalance) + topupUnits(ctx.pending);
  if (ctx.loadLimit !== undefined && onCard + value > topupUnits(ctx.loadLimit))
    return { code: CARD_MONEY_ERRORS.loadLimitExceeded, limit: ctx.loadLimit };
  if (ctx.dailyLimit !== undefined && topupUnits(ctx.today) + value > topupUnits(ctx.dailyLimit))
    return { code: CARD_MONEY_ERRORS.dailyLimitExceeded, limit: ctx.dailyLimit };
  return undefined;
}

/** Label key of a top-up's status (docs/cards.md#states): aasm_state `failed` shows as Processing. */
export function topupStatusKey(item: Pick<TopupItem, 'aasm_state' | 'topup_status'>): string {
  if (item.aasm_state === 'failed') return 'card.topup.status.processing';
  return `card.topup.status.${item.topup_status}`;
}

/**
 * The note under a declined top-up's Processing (issue 32): once its amount is back in the spot wallet
 * (`topup_status` refunded) the history says so; otherwise none.
 */
export function topupStatusNote(item: Pick<TopupItem, 'aasm_state' | 'topup_status'>): string | undefined {
  return item.aasm_state === 'failed' && item.topup_status === 'refunded'
    ? 'card.topup.status.refundedNote'
    : undefined;
}

export function topupStatusColor(item: Pick<TopupItem, 'aasm_state' | 'topup_status'>): string {
  if (item.aasm_state === 'failed' || item.topup_status === 'processing') return 'yellow';
  return item.topup_status === 'success' ? 'teal' : 'gray';
}

// ── Statement (docs/cards.md#screens, #validation, #constants) ─────────────────────────────────────────────

const DAY_MS = 86_400_000;

/** A date as YYYY-MM-DD in UTC (the statement's calendar: the server checks dates against its UTC today). */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `day` moved by `days` (negative: back), YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** The statement's default period (docs/cards.md#validation): the last 30 days, ending today. */
export function defaultStatementRange(today: string): { date_from: string; date_to: string } {
  return { date_from: addDays(today, -STATEMENT_MAX_DAYS), date_to: today };
}

/** The statement filters as sent (without paging). */
export type StatementFilters = Omit<CardTransactionInput, 'size' | 'start'>;
/** The statement form before validation. */
export type StatementDraft = Omit<StatementFilters, 'card_number'> & { card_number: string };

/** The statement filters (docs/cards.md#screens, #validation) checked by the server's own schema against `today` (UTC). */
export function validateStatement(
  draft: StatementDraft,
  today: string,
): { filters: StatementFilters } | { errors: Record<string, string> } {
  const parsed = cardTransactionSchema(today).safeParse(draft);
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  const { size: _size, start: _start, ...filters } = parsed.data;
  return { filters };
}

/** Offset of a 1-based page. */
export const pageStart = (page: number, size: number) => (page - 1) * size;

/** The label of a card transaction type code (docs/cards.md#data); an unknown code shows as it is. */
export function tradeTypeLabel(code: number | string): string {
  return CARD_TRANSACTION_TYPES[Number(code)] ?? String(code);
}

/** The remark of the detail dialog (docs/cards.md#screens): at most 25 characters, then an ellipsis. */
export function truncateRemark(remark: string | null | undefined, max = 25): string {
  const text = remark ?? '';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A function that runs `fn` once `ms` after the last call (docs/cards.md#constants conversion debounce); `cancel` drops it. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, ms);
  };
  call.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return call;
}

/**
 * The message of a refused top up from the server. The limit codes carry `limit` in the body (or the card_fee
 * value is used); the server's insufficient-balance answer is the docs/cards.md#errors case "Insufficient balance available!".
 */
export function topupErrorText(
  t: TFunction,
  err: unknown,
  fallbackLimits: { load?: string; daily?: string },
) {
  const code = cardErrorCode(err);
  const limit = err instanceof ApiError ? err.details.limit : undefined;
  const text = typeof limit === 'string' || typeof limit === 'number' ? String(limit) : undefined;
  if (code === CARD_MONEY_ERRORS.insufficientBalance) return t('card.topup.serverInsufficient');
  if (code === CARD_MONEY_ERRORS.loadLimitExceeded)
    return t(code, { limit: text ?? fallbackLimits.load ?? '' });
  if (code === CARD_MONEY_ERRORS.dailyLimitExceeded)
    return t(code, { limit: text ?? fallbackLimits.daily ?? '' });
  return cardCodeText(t, code);
}

/** The message of a client-side problem. */
export function topupProblemText(t: TFunction, problem: TopupProblem): string {
  return problem.limit === undefined
    ? cardCodeText(t, problem.code)
    : t(problem.code, { limit: problem.limit });
}
