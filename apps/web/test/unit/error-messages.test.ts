import * as shared from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/client.ts';
import { errorText } from '../../src/features/auth/components/errors.ts';
import { en, t } from '../../src/i18n/index.ts';

/** Codes answered to another service, never to the browser: they need no message. */
const NOT_FOR_USERS = ['kyc.webhook.', 'sms.webhook.'];

/** Every `*_ERRORS` table of the shared package: the codes the server answers with. */
const tables = Object.entries(shared as Record<string, unknown>).filter(
  (entry): entry is [string, Record<string, string>] =>
    /_?ERRORS$/.test(entry[0]) && typeof entry[1] === 'object',
);

describe('the message catalogue (docs/platform.md#wire-contract: the web app maps codes to messages)', () => {
  it('finds the error tables', () => {
    expect(tables.map(([name]) => name)).toEqual(expect.arrayContaining(['ERRORS', 'CARD_ERRORS']));
  });

  it.each(tables)('has a message for every code of %s', (_name, table) => {
    const missing = Object.values(table).filter(
      (code) => !NOT_FOR_USERS.some((prefix) => code.startsWith(prefix)) && !(code in en),
    );
    expect(missing).toEqual([]);
  });

  it('has the spec wording of the card codes (docs/cards.md#validation, #errors)', () => {
    const { CARD_ERRORS } = shared;
    expect(en[CARD_ERRORS.countryNotAllowed]).toBe('You are not allowed to apply for card');
    expect(en[CARD_ERRORS.documentRequired]).toBe('Please upload your document');
    expect(en[CARD_ERRORS.selfieRequired]).toBe('Please upload your selfie');
    expect(en[CARD_ERRORS.documentTooLarge]).toBe('Image must smaller than 10MB!');
    expect(en[CARD_ERRORS.feeBalanceInsufficient]).toBe(
      'Ensure sufficient balance in your USDT wallet to apply for the card.',
    );
    expect(en[CARD_ERRORS.cardNumberRequired]).toBe('Please select card no.');
    expect(en[CARD_ERRORS.cardNumberInvalid]).toBe('Please fill correct account no.');
    expect(en[CARD_ERRORS.alreadyBlocked]).toBe('Already blocked card');
    expect(en[CARD_ERRORS.alreadyUnblocked]).toBe('Already unblocked card');
    expect(en[CARD_ERRORS.replacementInProgress]).toBe('Card replacement in processing');
    expect(en[CARD_ERRORS.cardBlocked]).toBe('Your card is blocked');
    expect(en[CARD_ERRORS.issuerTimeout]).toBe('Connection timeout');
    expect(en['card.camera.denied']).toBe('Allow camera permission and refresh page');
  });

  it('has the spec wording of the card money codes (docs/cards.md#validation)', () => {
    const { CARD_MONEY_ERRORS } = shared;
    expect(en[CARD_MONEY_ERRORS.topupBelowMinimum]).toBe('Minimum top up limit is 1 USDT');
    expect(en[CARD_MONEY_ERRORS.insufficientBalance]).toBe('Insufficient balance');
    expect(en[CARD_MONEY_ERRORS.loadLimitExceeded]).toBe('Maximum card balance limit is {{limit}} USDT.');
    expect(en[CARD_MONEY_ERRORS.dailyLimitExceeded]).toBe(
      'Your maximum Top up limit is {{limit}} USDT per day.',
    );
    expect(en[CARD_MONEY_ERRORS.statementRangeInvalid]).toBe('To date must be greater than the From date ');
    expect(en[CARD_MONEY_ERRORS.statementRangeTooLong]).toBe(
      'The difference between From and To date should not be more than 30 days',
    );
    expect(en['card.topup.serverInsufficient']).toBe('Unable to Top up, please contact customer care.');
  });
});

describe('the login lockout (docs/accounts.md#errors; issue 32, accounts item 14)', () => {
  it('says the account is blocked and for how long', () => {
    const { ERRORS, LIMITS } = shared;
    const blocked = new ApiError(401, [ERRORS.accountBlocked, ERRORS.tooManyAttempts], '');
    expect(LIMITS.loginLockMinutes).toBe(15);
    expect(errorText(t, blocked, 'login')).toBe(
      'Your account has been blocked. Too many failed attempts. The block lasts 15 minutes.',
    );
  });
});
