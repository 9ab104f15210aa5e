import {
  CARD_ERRORS,
  type CardFee,
  type CardListItem,
  type CardStatus,
  formatUnits,
  type IdType,
} from '@exchange/shared';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client.ts';
import { SCALE, units } from '../../components/format.tsx';

/** Label key of a card status (docs/cards.md#states): normal = Active, loss = Blocked, unverified = Not active. */
export function cardStatusKey(status: CardStatus | string): string {
  switch (status) {
    case 'normal':
      return 'card.status.normal';
    case 'loss':
      return 'card.status.loss';
    case 'unverified':
      return 'card.status.unverified';
    default:
      return 'card.status.replacement';
  }
}

export function cardStatusColor(status: CardStatus | string): string {
  if (status === 'normal') return 'teal';
  if (status === 'loss') return 'red';
  return 'yellow';
}

/** A card number in groups of four (`5412 3456 7890 1234`); a masked number is shown as it is. */
export function groupCardNumber(number: string): string {
  const digits = number.replace(/\s/g, '');
  return /^\d+$/.test(digits) ? (digits.match(/.{1,4}/g) ?? []).join(' ') : number;
}

/**
 * The card a card action's dialog starts with: the one on screen when it is among the user's cards, else the only
 * card there is, else none (the dialog then asks "Please select card no.").
 */
export function preselectedCard(cards: readonly CardListItem[], shown: CardListItem | undefined): string {
  if (shown && cards.some((c) => c.card_number === shown.card_number)) return shown.card_number;
  return cards.length === 1 ? (cards[0]?.card_number ?? '') : '';
}

/** Longest card number as typed: 16 digits in groups of four with a space or dash between them. */
export const CARD_NUMBER_INPUT_MAX = 19;

/**
 * The activation field as typed (docs/cards.md#validation, 16 digits): characters that are not digits, spaces or dashes are
 * dropped first, then the rest is cut, so letters typed in between never count against the length.
 */
export function cardNumberInput(typed: string): string {
  return typed.replace(/[^\d\s-]/g, '').slice(0, CARD_NUMBER_INPUT_MAX);
}

/** What ordering a card costs now: activation fee plus the first annual fee (docs/cards.md#validation), exact. */
export function feeDue(fee: Pick<CardFee, 'activation_fee' | 'annual_fee'>): string {
  return formatUnits(units(fee.activation_fee) + units(fee.annual_fee), SCALE);
}

/** True when the spot USDT balance covers activation plus annual fee (docs/cards.md#validation). */
export function coversFee(
  usdtBalance: string | undefined,
  fee: Pick<CardFee, 'activation_fee' | 'annual_fee'>,
) {
  return units(usdtBalance) >= units(fee.activation_fee) + units(fee.annual_fee);
}

/** The code of a failed card call: any 504 is the issuer's timeout ("Connection timeout", docs/cards.md#errors). */
export function cardErrorCode(err: unknown): string {
  if (!(err instanceof ApiError)) return 'server.error';
  if (err.code === 504) return CARD_ERRORS.issuerTimeout;
  return err.errors[0] ?? 'server.error';
}

/** The message of a code; the document-number codes have a passport wording (docs/cards.md#validation, #errors). */
export function cardCodeText(t: TFunction, code: string, idType?: IdType): string {
  const keys = idType === 'passport' ? [`card.passport/${code}`, code] : [code];
  return t([...keys, 'server.error']);
}

/** The message of a failed card call. */
export function cardErrorText(t: TFunction, err: unknown, idType?: IdType): string {
  return cardCodeText(t, cardErrorCode(err), idType);
}
