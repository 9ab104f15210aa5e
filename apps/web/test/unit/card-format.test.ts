import { CARD_ERRORS, type CardListItem } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client.ts';
import {
  cardCodeText,
  cardErrorCode,
  cardErrorText,
  cardNumberInput,
  cardStatusKey,
  coversFee,
  feeDue,
  groupCardNumber,
  preselectedCard,
} from '../../src/features/card/format.ts';
import { t } from '../../src/i18n/index.ts';

describe('card display (docs/cards.md#states)', () => {
  it('labels normal as Active, loss as Blocked, unverified as Not active', () => {
    expect(t(cardStatusKey('normal'))).toBe('Active');
    expect(t(cardStatusKey('loss'))).toBe('Blocked');
    expect(t(cardStatusKey('unverified'))).toBe('Not active');
    expect(t(cardStatusKey('Card replacement processing'))).toBe('Card replacement processing');
  });

  it('groups a full number by four and leaves a masked one as it is', () => {
    expect(groupCardNumber('5412345678901234')).toBe('5412 3456 7890 1234');
    expect(groupCardNumber('5412 **** **** 1234')).toBe('5412 **** **** 1234');
  });
});

describe('fee balance check (docs/cards.md#validation)', () => {
  const fee = { activation_fee: '10.5', annual_fee: '20.25' };

  it('sums activation and annual fee exactly', () => {
    expect(feeDue(fee)).toBe('30.75');
    expect(feeDue({ activation_fee: '0.1', annual_fee: '0.2' })).toBe('0.3');
  });

  it('needs USDT at least activation plus annual fee', () => {
    expect(coversFee('30.75', fee)).toBe(true);
    expect(coversFee('100', fee)).toBe(true);
    expect(coversFee('30.749999', fee)).toBe(false);
    expect(coversFee(undefined, fee)).toBe(false);
  });
});

describe('card error messages (docs/cards.md#validation, #errors)', () => {
  it('gives the passport wording of the document-number codes', () => {
    expect(cardCodeText(t, CARD_ERRORS.idNumberRequired, 'id_card')).toBe('Please enter a valid id number');
    expect(cardCodeText(t, CARD_ERRORS.idNumberRequired, 'passport')).toBe(
      'Please enter a valid passport number',
    );
    expect(cardCodeText(t, CARD_ERRORS.idNumberTooShort, 'id_card')).toBe(
      'Id number must be 6 character long',
    );
    expect(cardCodeText(t, CARD_ERRORS.idNumberTooShort, 'passport')).toBe(
      'Passport number must be 6 character long',
    );
    expect(cardCodeText(t, CARD_ERRORS.idnoExists, 'id_card')).toBe('Id number already exist');
    expect(cardCodeText(t, CARD_ERRORS.idnoExists, 'passport')).toBe('Passport number already exist');
  });

  it('shows any 504 of a card call as "Connection timeout"', () => {
    const timeout = new ApiError(504, ['server.error'], '');
    expect(cardErrorCode(timeout)).toBe(CARD_ERRORS.issuerTimeout);
    expect(cardErrorText(t, timeout)).toBe('Connection timeout');
    expect(cardErrorText(t, new ApiError(504, [CARD_ERRORS.issuerTimeout], ''))).toBe('Connection timeout');
  });

  it('uses the first code of a refusal, and the generic text for anything else', () => {
    expect(cardErrorText(t, new ApiError(422, [CARD_ERRORS.alreadyBlocked], ''))).toBe(
      'Already blocked card',
    );
    expect(cardErrorText(t, new Error('boom'))).toBe('Server error');
    expect(cardErrorText(t, new ApiError(422, ['no.such.code'], ''))).toBe('Server error');
  });
});

describe('card activation field (issue 32, accounts item 6)', () => {
  it('strips what is not a digit, space or dash first, then cuts to 19 characters', () => {
    expect(cardNumberInput('4111ab1111cd1111ef1111')).toBe('4111111111111111');
    expect(cardNumberInput('4111 1111 1111 1111 99')).toBe('4111 1111 1111 1111');
    expect(cardNumberInput('4111-1111-1111-1111')).toBe('4111-1111-1111-1111');
  });
});

describe('card action dialogs start with a card (issue 32, accounts item 1)', () => {
  const card = (card_number: string): CardListItem => ({
    id: 1,
    card_number,
    balance: '0',
    status: 'normal',
    next_charge_on: '2027-01-01',
    expiry_date: '01/30',
    fulfillment_status: 'delivered',
    created_at: '2026-01-01T00:00:00Z',
  });
  const one = card('4111 **** **** 1111');
  const two = card('4111 **** **** 2222');
  it('chooses the card on screen, else the only card, else none', () => {
    expect(preselectedCard([one, two], two)).toBe(two.card_number);
    expect(preselectedCard([one], undefined)).toBe(one.card_number);
    expect(preselectedCard([one, two], undefined)).toBe('');
    expect(preselectedCard([one], two)).toBe(one.card_number);
    expect(preselectedCard([], undefined)).toBe('');
  });
});
