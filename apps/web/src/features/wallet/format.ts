import {
  formatUnits,
  parseUnits,
  WALLET_ERRORS,
  type WalletHistoryItem,
  WITHDRAW_AMOUNT_MAX_CHARS,
} from '@exchange/shared';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client.ts';
import type { Currency, Network } from './api.ts';

/** The coin chosen on the balance page, read by /deposit_withdraw. */
export const COIN_STORAGE_KEY = 'walletCoin';
/** Coin shown when none was chosen (docs/wallet.md#constants). */
export const DEFAULT_COIN = 'trx';
/** At most 10 decimals in a withdraw amount (docs/wallet.md#validation). */
export const WITHDRAW_MAX_DECIMALS = 10;

/** Network name: the part of the blockchain key before the first dash (`tron-sim` → `tron`). */
export const networkName = (blockchainKey: string | null | undefined) =>
  (blockchainKey ?? '').split('-')[0] ?? '';

/** The block explorer page of a transaction, from the network's `#{txid}` template; undefined without one. */
export function explorerLink(network: Network | undefined, txid: string | null): string | undefined {
  const template = network?.explorer_transaction;
  if (!txid || !template?.includes('#{txid}')) return undefined;
  return template.replace('#{txid}', encodeURIComponent(txid));
}

/** The network of a history item, looked up in the currency list. */
export function networkOf(currencies: Currency[] | undefined, item: WalletHistoryItem): Network | undefined {
  return currencies
    ?.find((c) => c.id === item.currency)
    ?.networks.find((n) => n.blockchain_key === item.blockchain_key);
}

/**
 * Amount typing rule (docs/wallet.md#validation): digits and one dot, at most 10 characters, at most `decimals` decimals (never
 * more than 10); a leading '.' becomes '0.'. A longer value the slider put in the field (an exact share of
 * the balance) can still be shortened key by key. Returns the accepted text or undefined to keep the old value.
 */
export function acceptAmount(text: string, decimals: number, previous = ''): string | undefined {
  const next = text.startsWith('.') ? `0${text}` : text;
  if (!/^\d*\.?\d*$/.test(next)) return undefined;
  const dot = next.indexOf('.');
  const places = dot >= 0 ? next.length - dot - 1 : 0;
  if (places > decimals) return undefined;
  if (next.length <= WITHDRAW_AMOUNT_MAX_CHARS && places <= WITHDRAW_MAX_DECIMALS) return next;
  return next.length < previous.length ? next : undefined;
}

/** A typed amount in the currency's smallest units; 0 while it is empty or not a number yet. */
export function unitsOf(text: string, precision: number): bigint {
  const parsed = parseUnits(text || '0', precision);
  return parsed.ok ? parsed.units : 0n;
}

/**
 * The amount the slider puts in the field: `percent` of the available balance, exactly, rounded down to the
 * currency's precision. Not cut to the 10 characters of typing: 100 % is everything available.
 */
export function sliderAmount(available: string, precision: number, percent: number): string {
  const parsed = parseUnits(available || '0', precision);
  const units = parsed.ok ? parsed.units : 0n;
  return formatUnits((units * BigInt(percent)) / 100n, precision);
}

/** Blockchain confirmations before a deposit is credited, when the network does not say (docs/wallet.md#constants). */
export const DEPOSIT_CONFIRMATIONS = 30;

/** A pending deposit's confirmation count out of those its network needs: `{ n, needed }`. */
export function depositProgress(
  item: Pick<WalletHistoryItem, 'confirmations'>,
  network: Pick<Network, 'min_confirmations'> | undefined,
): { n: number; needed: number } | undefined {
  if (item.confirmations === undefined) return undefined;
  const needed = network?.min_confirmations || DEPOSIT_CONFIRMATIONS;
  return { n: Math.min(item.confirmations, needed), needed };
}

/** Label key of a history row's status: a deposit is Pending until confirmed, then Completed (docs/wallet.md#states). */
export function statusKey(kind: 'deposits' | 'withdraws' | 'adjustments', state: string): string {
  if (kind === 'deposits') {
    if (state === 'submitted') return 'wallet.status.pending';
    if (state === 'canceled' || state === 'rejected') return `wallet.status.${state}`;
    return 'wallet.status.completed';
  }
  return `wallet.state.${state}`;
}

/** Green for done or under way, red for refusals and failures. */
export function statusColor(state: string): string {
  return ['canceled', 'rejected', 'failed', 'errored'].includes(state) ? 'red' : 'teal';
}

/** Codes the wallet never shows (docs/wallet.md#permissions): the permission prompts explain the reason instead. */
const SILENT: readonly string[] = [WALLET_ERRORS.withdrawNotPermitted];

/**
 * The code of a failed wallet call, '' for a silent refusal. A form keeps codes as its field errors and
 * translates them when it shows them, so a dialog stores this, never the translated text.
 */
export function walletErrorCode(err: unknown): string {
  const codes = err instanceof ApiError ? err.errors : ['server.error'];
  return codes.find((c) => !SILENT.includes(c)) ?? '';
}

/** The message of a failed wallet call, '' for a silent refusal, with `params` for the minimum amount text. */
export function walletErrorText(t: TFunction, err: unknown, params: Record<string, unknown> = {}): string {
  const code = walletErrorCode(err);
  if (!code) return '';
  return t([code, 'server.error'], params);
}
