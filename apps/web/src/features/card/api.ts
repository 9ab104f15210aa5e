import {
  API,
  CARD_ERRORS,
  type CardAudit,
  type CardCharge,
  type CardCostInput,
  type CardData,
  type CardDocumentType,
  type CardFee,
  type CardHolderState,
  type CardListItem,
  type CardPinReveal,
  type CardPinRevealInput,
  type CardReveal,
  type CardTopupInput,
  type CardTransactionInput,
  type CheckDocumentResult,
  type CreateCardholderInput,
  type PriceConversion,
  STATEMENT_PAGE_SIZE,
  type StatementPage,
  type TopupList,
} from '@exchange/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, apiPage } from '../../api/client.ts';

/** Card calls (docs/cards.md#api) under the Peatio prefix; card numbers are sent as the list shows them. */
export const CARD_KEYS = {
  all: ['card'] as const,
  holder: ['card', 'holder'] as const,
  check: ['card', 'check'] as const,
  audit: ['card', 'audit'] as const,
  fee: ['card', 'fee'] as const,
  cards: ['card', 'cards'] as const,
  details: ['card', 'details'] as const,
  reveal: ['card', 'reveal'] as const,
  charges: ['card', 'charges'] as const,
  topups: ['card', 'topups'] as const,
  conversion: ['card', 'conversion'] as const,
  statement: ['card', 'statement'] as const,
};

/** How often "To be reviewed" asks for the review state. */
export const AUDIT_POLL_MS = 5000;
/** Rows per page of the charges table (docs/cards.md#constants). */
export const CHARGES_PAGE_LIMIT = 10;

/** A refusal (4xx) is an answer: asking again would not change it; timeouts and 5xx get one more try. */
const retry = (count: number, err: unknown) => !(err instanceof ApiError && err.code < 500) && count < 1;

/**
 * The card actions of the menu that only confirm (docs/cards.md#screens, #api): path and the spec's `type` label. Password
 * Retrieval is not one of them: it shows the PIN behind an authenticator code (`CardPinModal`).
 */
export const CARD_ACTIONS = {
  replace: { path: '/account/replace_card', type: 'Replace' },
  block: { path: '/account/report/card_loss', type: 'Block' },
  unblock: { path: '/account/remove/card_loss', type: 'Unblock' },
} as const;
export type CardActionKind = keyof typeof CARD_ACTIONS;

/** Which id types the country allows; `allowed` false for a blocked country (docs/cards.md#validation). */
export function useCheckDocument(country: string | undefined, enabled = true) {
  return useQuery({
    queryKey: [...CARD_KEYS.check, country],
    enabled: Boolean(country) && enabled,
    queryFn: () =>
      api<CheckDocumentResult>('peatio', '/account/cardholder/check_document', { query: { country } }),
    staleTime: 300_000,
    retry,
  });
}

/** The user's card holder, or null before applying (404 account.card.holder_not_found). */
export function useCardholder(enabled: boolean) {
  return useQuery({
    queryKey: CARD_KEYS.holder,
    enabled,
    queryFn: async (): Promise<CardHolderState | null> => {
      try {
        return await api<CardHolderState>('peatio', '/account/cardholder_details');
      } catch (err) {
        if (err instanceof ApiError && err.errors.includes(CARD_ERRORS.holderNotFound)) return null;
        throw err;
      }
    },
    retry,
  });
}

/** The review state, polled while the documents are under review. */
export function useCardAudit(poll: boolean) {
  return useQuery({
    queryKey: CARD_KEYS.audit,
    queryFn: () => api<CardAudit>('peatio', '/account/card_audit'),
    refetchInterval: poll ? AUDIT_POLL_MS : false,
    retry,
  });
}

export function useCardFee() {
  return useQuery({
    queryKey: CARD_KEYS.fee,
    queryFn: () => api<CardFee>('peatio', '/account/card_fee'),
    staleTime: 60_000,
    retry,
  });
}

/** The user's cards, numbers masked. */
export function useCards(enabled: boolean) {
  return useQuery({
    queryKey: CARD_KEYS.cards,
    enabled,
    queryFn: () => api<CardListItem[]>('peatio', '/account/cards'),
    retry,
  });
}

/** The card wallet of one card. */
export function useCardDetails(cardNumber: string | undefined) {
  return useQuery({
    queryKey: [...CARD_KEYS.details, cardNumber],
    enabled: Boolean(cardNumber),
    queryFn: () => api<CardData>('peatio', '/account/card_details', { query: { card_number: cardNumber } }),
    retry,
  });
}

/** The full number of a card, asked only while "Show number" is on, and never kept once hidden. */
export function useCardReveal(cardNumber: string | undefined, shown: boolean) {
  return useQuery({
    queryKey: [...CARD_KEYS.reveal, cardNumber],
    enabled: Boolean(cardNumber) && shown,
    queryFn: () => api<CardReveal>('peatio', '/account/cards/reveal', { query: { card_number: cardNumber } }),
    gcTime: 0,
    staleTime: 0,
    retry,
  });
}

/** One page of a card's charges, with the pagination headers. */
export function useCardCharges(cardNumber: string | undefined, page: number) {
  return useQuery({
    queryKey: [...CARD_KEYS.charges, cardNumber, page],
    enabled: Boolean(cardNumber),
    queryFn: () =>
      apiPage<CardCharge>('peatio', '/account/card_charges', {
        query: { card_number: cardNumber, page, limit: CHARGES_PAGE_LIMIT },
      }),
    placeholderData: keepPreviousData,
    retry,
  });
}

/** Rows per page of the top-up history (docs/cards.md#constants). */
export const TOPUPS_PAGE_LIMIT = 10;

/** One page of a card's top-ups (`list/topup_transactions`: items and totalItem). */
export function useTopups(cardNumber: string | undefined, page: number) {
  return useQuery({
    queryKey: [...CARD_KEYS.topups, cardNumber, page],
    enabled: Boolean(cardNumber),
    queryFn: () =>
      api<TopupList>('peatio', '/account/list/topup_transactions', {
        query: { card_number: cardNumber, page, limit: TOPUPS_PAGE_LIMIT },
      }),
    placeholderData: keepPreviousData,
    retry,
  });
}

/** The EUR worth of a USDT amount (`price/conversion`); ask it with an already debounced amount. */
export function useConversion(usdtAmount: string | undefined) {
  return useQuery({
    queryKey: [...CARD_KEYS.conversion, usdtAmount],
    enabled: Boolean(usdtAmount),
    queryFn: ({ signal }) =>
      api<PriceConversion>('peatio', '/account/price/conversion', {
        query: { currency: 'usdt', amount: usdtAmount },
        signal,
      }),
    staleTime: 15_000,
    retry: false,
  });
}

/** One page of a card's statement; `filters` undefined until the user asks for it. */
export function useStatement(
  filters: Omit<CardTransactionInput, 'size' | 'start'> | undefined,
  page: number,
) {
  return useQuery({
    queryKey: [...CARD_KEYS.statement, filters, page],
    enabled: Boolean(filters),
    queryFn: () =>
      api<StatementPage>('peatio', '/account/card_transaction', {
        method: 'POST',
        body: { ...filters, size: STATEMENT_PAGE_SIZE, start: (page - 1) * STATEMENT_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    retry,
  });
}

/** Refetches everything the card page shows (after any card operation: docs/cards.md#states). */
export function useRefreshCards() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: CARD_KEYS.all });
}

export const cardCalls = {
  /** Applies: creates the card holder with the chosen document. */
  createCardholder: (body: CreateCardholderInput) =>
    api<CardHolderState>('peatio', '/account/cardholder', { method: 'POST', body }),
  /** Uploads one image (multipart: `doc_type` and the file `document_data`). */
  uploadDocument: (docType: CardDocumentType, image: Blob) => {
    const form = new FormData();
    form.append('doc_type', docType);
    form.append('document_data', image, `${docType}.jpg`);
    return api('peatio', '/account/upload_document', { method: 'POST', body: form });
  },
  /** Submits the uploaded documents for review. */
  submitDocuments: () => api('peatio', '/account/cardholder_document', { method: 'POST', body: {} }),
  /** Orders and pays a new card, or (with `card_number`) pays an unpaid one. */
  payCard: (body: CardCostInput) =>
    api<CardListItem>('peatio', '/account/card_cost', { method: 'POST', body }),
  activate: (cardNumber: string) =>
    api('peatio', '/account/card_activate', { method: 'POST', body: { card_number: cardNumber } }),
  /** USDT from the spot wallet onto a card (docs/cards.md#validation, #api). */
  topup: (body: CardTopupInput) => api('peatio', '/account/card_topup', { method: 'POST', body }),
  action: (kind: CardActionKind, cardNumber: string) => {
    const { path, type } = CARD_ACTIONS[kind];
    return api('peatio', path, { method: 'POST', body: { card_number: cardNumber, type } });
  },
  /** The card's PIN, for the screen only: never cached (the caller keeps it in state while it is shown). */
  revealPin: (body: CardPinRevealInput) =>
    api<CardPinReveal>('peatio', '/account/password/retrieval', { method: 'POST', body }),
};

/** Where the user's own uploaded image is served (`?v=` changes after a new upload so the browser reloads it). */
export function documentImageUrl(docType: CardDocumentType, version: number): string {
  return `${API.peatio}/account/cardholder/documents/${docType}?v=${version}`;
}
