import { WALLET_ERRORS, type WalletHistoryItem, WITHDRAW_AMOUNT_MAX_CHARS } from '@exchange/shared';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client.ts';
import type { Currency, Network } from './api.ts';

/** The coin chosen on the balance page, read by /deposit_withdraw. */
export const COIN_STORAGE_KEY = 'walletCoin';
/** Coin shown when none was chosen (spec §9). */
export const DEFAULT_COIN = 'trx';
/** At most 10 decimals in a withdraw amount (spec §5). */
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
 * Amount typing rule (spec §5): digits and one dot, at most 10 characters, at most `decimals` decimals (never
 * more than 10); a leading '.' becomes '0.'. Returns the accepted text or undefined to keep the old value.
 */
export function acceptAmount(text: string, decimals: number): string | undefined {
  const next = text.startsWith('.') ? `0${text}` : text;
  if (!/^\d*\.?\d*$/.test(next) || next.length > WITHDRAW_AMOUNT_MAX_CHARS) return undefined;
  const dot = next.indexOf('.');
  if (dot >= 0 && next.length - dot - 1 > Math.min(decimals, WITHDRAW_MAX_DECIMALS)) return undefined;
  return next;
}

/** Cuts a decimal string to fit the 10-character amount field, dropping decimals first. */
export function fitAmount(text: string): string {
  if (text.length <= WITHDRAW_AMOUNT_MAX_CHARS) return text;
  const cut = text.slice(0, WITHDRAW_AMOUNT_MAX_CHARS);
  return cut.endsWith('.') ? cut.slice(0, -1) : cut;
}

/** Label key of a history row's status: a deposit is Pending until confirmed, then Completed (spec §4). */
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

/** Codes the wallet never shows (spec §6): the permission prompts explain the reason instead. */
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
