import {
  type CardData,
  type CardHolderState,
  type CardListItem,
  type CardStatus,
  requiredDocuments,
  toUnits,
} from '@exchange/shared';
import type { DocumentInfo } from './holder-documents-repository.ts';
import { fmtEur, fmtUsdt, USDT_DECIMALS } from './money.ts';
import type { CardRow, HolderRow } from './repository.ts';

/** `5300 **** **** 1234`: what lists show and what actions accept besides the full number. */
export function maskedNumber(card: Pick<CardRow, 'first4' | 'last4'>): string {
  return `${card.first4 ?? '****'} **** **** ${card.last4 ?? '****'}`;
}

/** `MMYY` → `MM/YY`. */
export function expiryDate(mmyy: string | null): string {
  return mmyy ? `${mmyy.slice(0, 2)}/${mmyy.slice(2)}` : '';
}

/** A card as `GET /account/cards` lists it; the issuer's fulfilment shows once the card is paid. */
export function cardListItem(card: CardRow): CardListItem {
  return {
    id: Number(card.id),
    card_number: maskedNumber(card),
    balance: fmtUsdt(toUnits(card.balance, USDT_DECIMALS)),
    status: card.status as CardStatus,
    next_charge_on: card.next_charge_on,
    expiry_date: expiryDate(card.expiry),
    fulfillment_status: card.paid_periods > 0 ? card.fulfillment : null,
    created_at: card.created_at.toISOString(),
  };
}

/** `GET /account/card_details`: the card wallet. */
export function cardData(
  card: CardRow,
  wallet: { balance: bigint; pending: bigint; today: bigint; eurCents: bigint } = {
    balance: 0n,
    pending: 0n,
    today: 0n,
    eurCents: 0n,
  },
): CardData {
  return {
    card_number: maskedNumber(card),
    balance: fmtUsdt(wallet.balance),
    usdt_balance: fmtUsdt(wallet.balance),
    eur_balance: fmtEur(wallet.eurCents),
    total_24h: fmtUsdt(wallet.today),
    pending_topups: fmtUsdt(wallet.pending),
    expiry_date: expiryDate(card.expiry),
    status: card.status as CardStatus,
  };
}

/** `GET /account/cardholder_details`: the holder, which images are uploaded, and the review. */
export function holderState(holder: HolderRow, idNo: string, documents: DocumentInfo[]): CardHolderState {
  const has = (type: string) => documents.some((d) => d.doc_type === type);
  const idImagesUploaded = requiredDocuments(holder.id_type).every(has);
  return {
    holder_id: holder.id,
    first_name: holder.first_name,
    last_name: holder.last_name,
    id: idNo,
    country: holder.country,
    idno_type: holder.id_type === 'passport' ? 2 : 1,
    audit_status: holder.status,
    document_status: idImagesUploaded ? 'uploaded' : 'missing',
    selfie_status: has('selfie') ? 'uploaded' : 'missing',
    id_card_front: has('id_card_front'),
    id_card_back: has('id_card_back'),
    passport: has('passport'),
    selfie: has('selfie'),
    isIncomplete: holder.status === 'incomplete_information',
    status: holder.status,
    description: holder.description,
    bindSuccess: holder.status === 'activation_successful',
  };
}
