import type { AmountQuote, BeneficiaryItem, SwapItem, WalletHistoryItem } from '@exchange/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiPage } from '../../api/client.ts';
import { useRanger } from '../../api/ranger.ts';

/** A network of a currency (`GET /public/currencies`). */
export interface Network {
  blockchain_key: string;
  protocol: string;
  explorer_transaction: string;
  explorer_address: string;
  min_deposit_amount: string;
  min_withdraw_amount: string;
  withdraw_fee: string;
  deposit_fee: string;
  deposit_enabled: boolean;
  withdraw_enabled: boolean;
  min_confirmations: number;
  currency_id: string;
}

export interface Currency {
  id: string;
  name: string;
  type: string;
  precision: number;
  icon_url: string;
  swap_fee: string;
  deposit_fee: string;
  networks: Network[];
}

/** A row of `GET /account/balances?version=v2` (name and precision may be absent: the currency list has them). */
export interface BalanceRow {
  currency: string;
  name?: string;
  precision?: number;
  balance: string;
  locked: string;
  /** Value of one unit in USDT ("1" when there is no price). */
  usdt_price: string;
}

export interface DepositAddress {
  currency: string;
  blockchain_key: string;
  /** Null while the address is being generated. */
  address: string | null;
  state: string;
}

/** `GET /account/withdraw_permission`. */
export interface WithdrawPermission {
  allowed: boolean;
  level: number;
  otp: boolean;
  /** ISO time until which withdrawals are held after a password or 2FA change. */
  hold_until: string | null;
  /**
   * The code a withdrawal would be refused with now (null when allowed): `account.withdraw.sanctions_review` while
   * a sanctions screening hit waits for compliance.
   */
  reason: string | null;
}

export type HistoryKind = 'deposits' | 'withdraws' | 'adjustments';

export interface HistoryFilters {
  state?: string;
  currency?: string;
  time_from?: number;
  time_to?: number;
  page: number;
  limit: number;
}

export const WALLET_KEYS = {
  currencies: ['wallet', 'currencies'] as const,
  balances: ['wallet', 'balances'] as const,
  history: ['wallet', 'history'] as const,
  beneficiaries: ['wallet', 'beneficiaries'] as const,
  permission: ['wallet', 'permission'] as const,
  swaps: ['wallet', 'swaps'] as const,
  address: ['wallet', 'address'] as const,
};

/** Deposit address retries (docs/wallet.md#api, #constants): up to 5 more tries, 2000 ms apart, until an address is present. */
export const ADDRESS_RETRIES = 5;
export const ADDRESS_RETRY_MS = 2000;

export function useCurrencies() {
  return useQuery({
    queryKey: WALLET_KEYS.currencies,
    queryFn: () => api<Currency[]>('peatio', '/public/currencies'),
    staleTime: 300_000,
  });
}

/** Balances with names, precisions and USDT prices; refreshed whenever the private `balances` stream moves. */
export function useWalletBalances() {
  const client = useQueryClient();
  useRanger('private', ['balances'], () => {
    void client.invalidateQueries({ queryKey: WALLET_KEYS.balances });
  });
  return useQuery({
    queryKey: WALLET_KEYS.balances,
    queryFn: () => api<BalanceRow[]>('peatio', '/account/balances', { query: { version: 'v2' } }),
  });
}

/** usd and eur have no chain of their own: their deposits go to the usdt address (docs/wallet.md#api). */
export const addressCurrency = (currency: string) =>
  currency === 'usd' || currency === 'eur' ? 'usdt' : currency;

/**
 * The deposit address of a currency on a network. While the server is still generating it (address null) the
 * call is tried again, at most 5 times, 2 s apart; the private `deposit_address` stream fills it in when ready.
 */
export function useDepositAddress(currency: string | undefined, blockchainKey: string | undefined) {
  const client = useQueryClient();
  const key = [...WALLET_KEYS.address, currency && addressCurrency(currency), blockchainKey];
  useRanger('private', currency && blockchainKey ? ['deposit_address'] : [], (payload) => {
    // The frame is {"deposit_address": {currency, blockchain_key, address}}; the payload is the inner object.
    const event = payload as Partial<DepositAddress> | undefined;
    if (!event?.address || !currency || !blockchainKey) return;
    if (event.currency === addressCurrency(currency) && event.blockchain_key === blockchainKey)
      client.setQueryData<DepositAddress>(key, (old) => ({
        state: 'active',
        ...old,
        currency: event.currency ?? currency,
        blockchain_key: blockchainKey,
        address: event.address ?? null,
      }));
  });
  return useQuery({
    queryKey: key,
    enabled: Boolean(currency && blockchainKey),
    queryFn: async () => {
      let attempt = 0;
      for (;;) {
        const answer = await api<DepositAddress>(
          'peatio',
          `/account/deposit_address/${addressCurrency(currency ?? '')}`,
          { query: { blockchain_key: blockchainKey } },
        );
        if (answer.address || attempt >= ADDRESS_RETRIES) return answer;
        attempt += 1;
        await new Promise((resolve) => window.setTimeout(resolve, ADDRESS_RETRY_MS));
      }
    },
    staleTime: 30_000,
  });
}

export function useWithdrawPermission() {
  return useQuery({
    queryKey: WALLET_KEYS.permission,
    queryFn: () => api<WithdrawPermission>('peatio', '/account/withdraw_permission'),
  });
}

/** Deposits, withdrawals or adjustments, one page, refreshed live by the private `deposit`/`withdraw` streams. */
export function useWalletHistory(kind: HistoryKind, filters: HistoryFilters) {
  const client = useQueryClient();
  useRanger('private', ['deposit', 'withdraw'], () => {
    void client.invalidateQueries({ queryKey: WALLET_KEYS.history });
  });
  return useQuery({
    queryKey: [...WALLET_KEYS.history, kind, filters],
    queryFn: () => apiPage<WalletHistoryItem>('peatio', `/account/${kind}`, { query: { ...filters } }),
    placeholderData: keepPreviousData,
  });
}

export function useBeneficiaries(currency: string | undefined, blockchainKey?: string) {
  return useQuery({
    queryKey: [...WALLET_KEYS.beneficiaries, currency, blockchainKey],
    enabled: Boolean(currency),
    queryFn: () =>
      api<BeneficiaryItem[]>('peatio', '/account/beneficiaries', {
        query: { currency, blockchain_key: blockchainKey },
      }),
  });
}

/** A swap quote; the caller debounces `amount`. */
export function useAmountQuote(from: string, to: string, amount: string, enabled: boolean) {
  return useQuery({
    queryKey: ['wallet', 'quote', from, to, amount],
    enabled,
    retry: false,
    queryFn: () =>
      api<AmountQuote>('peatio', '/account/amount_quote', {
        query: { from_currency: from, to_currency: to, amount },
      }),
  });
}

export function useSwaps(state: string | undefined, page: number, limit: number) {
  return useQuery({
    queryKey: [...WALLET_KEYS.swaps, state, page, limit],
    queryFn: () => apiPage<SwapItem>('peatio', '/account/swaps', { query: { limit, page, state } }),
    placeholderData: keepPreviousData,
  });
}
