import { CARD_ERRORS, CARD_MONEY_ERRORS, formatUnits, STATEMENT_MAX_DAYS, toUnits } from '@exchange/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/client.ts';
import {
  acceptTopupInput,
  addDays,
  checkTopup,
  debounce,
  defaultStatementRange,
  pageStart,
  percentOfLoadable,
  type TopupContext,
  topupErrorText,
  topupProblemText,
  topupStatusKey,
  topupStatusNote,
  tradeTypeLabel,
  truncateRemark,
  validateStatement,
} from '../../src/features/card/money.ts';
import { readOutcome } from '../../src/features/dev/devApi.ts';
import { t } from '../../src/i18n/index.ts';

describe('top-up quick buttons (docs/cards.md#validation, issue 32): percent of what can actually be loaded, exact', () => {
  // The audit's case: a 97,706.125 USDT spot balance, the default 1 % fee, 5,000 a day and 10,000 on the card.
  const room: TopupContext = {
    usdtBalance: '97706.125',
    feePercent: '1',
    cardBalance: '0',
    pending: '0',
    today: '0',
    loadLimit: '10000',
    dailyLimit: '5000',
    status: 'normal',
  };

  it('takes the smallest of balance less fee, the day left and the room under the load limit', () => {
    // The day's limit binds: 100 % is 5000, 25 % is 1250 (25 % of the balance was 24426.53, over both limits).
    expect(percentOfLoadable(room, '1', 100)).toBe('5000');
    expect(percentOfLoadable(room, '1', 25)).toBe('1250');
    // 4,000 loaded today: 1,000 left of the day.
    expect(percentOfLoadable({ ...room, today: '4000' }, '1', 100)).toBe('1000');
    // 9,500 on the card and 300 on its way: 200 under the load limit.
    expect(percentOfLoadable({ ...room, cardBalance: '9500', pending: '300' }, '1', 50)).toBe('100');
    // A small balance binds: 101 USDT pays 100 and its 1 USDT fee.
    expect(percentOfLoadable({ ...room, usdtBalance: '101' }, '1', 100)).toBe('100');
  });

  it('makes 100 % an amount every client check lets through, fee included, to the last unit', () => {
    for (const usdtBalance of ['101', '100.999999', '55.5', '1.01', '1234.567891']) {
      const ctx = { ...room, usdtBalance };
      const amount = percentOfLoadable(ctx, '1', 100);
      expect(checkTopup(amount, ctx), `${usdtBalance} → ${amount}`).toBeUndefined();
      // One unit more would not be covered.
      const more = formatUnits(toUnits(amount, 6) + 1n, 6);
      expect(checkTopup(more, ctx)?.code, `${usdtBalance} → ${more}`).toBe(
        CARD_MONEY_ERRORS.insufficientBalance,
      );
    }
  });

  it('gives 0 when nothing can be loaded', () => {
    expect(percentOfLoadable({ ...room, today: '5000' }, '1', 100)).toBe('0');
    expect(percentOfLoadable({ ...room, cardBalance: '10000' }, '1', 100)).toBe('0');
    expect(percentOfLoadable({ ...room, cardBalance: '10001' }, '1', 100)).toBe('0');
    expect(percentOfLoadable({ ...room, usdtBalance: undefined }, '1', 100)).toBe('0');
  });
});

describe('top-up amount as typed (docs/cards.md#validation: up to 6 decimals)', () => {
  it('accepts digits with up to 6 decimals and refuses the 7th', () => {
    expect(acceptTopupInput('12.123456', '12.12345')).toBe('12.123456');
    expect(acceptTopupInput('12.1234567', '12.123456')).toBe('12.123456');
    expect(acceptTopupInput('1a', '1')).toBe('1');
    expect(acceptTopupInput('.5', '')).toBe('0.5');
    expect(acceptTopupInput('1,5', '1')).toBe('1.5');
    expect(acceptTopupInput('', '3')).toBe('');
  });
});

describe('top-up client checks (docs/cards.md#validation)', () => {
  const ctx: TopupContext = {
    usdtBalance: '500.12345678',
    feePercent: '0',
    pending: '0',
    cardBalance: '900',
    today: '200',
    loadLimit: '1000',
    dailyLimit: '250',
    status: 'normal',
  };
  const text = (amount: string, c = ctx) => {
    const problem = checkTopup(amount, c);
    return problem && topupProblemText(t, problem);
  };

  it('lets a good amount through', () => {
    expect(checkTopup('50', ctx)).toBeUndefined();
    expect(checkTopup('1', { ...ctx, cardBalance: '0', today: '0' })).toBeUndefined();
  });

  it('uses the spec messages', () => {
    expect(text('0.5')).toBe('Minimum top up limit is 1 USDT');
    expect(text('500.123457', { ...ctx, loadLimit: undefined, dailyLimit: undefined })).toBe(
      'Insufficient balance',
    );
    expect(text('101')).toBe('Maximum card balance limit is 1000 USDT.');
    expect(text('51', { ...ctx, cardBalance: '0' })).toBe('Your maximum Top up limit is 250 USDT per day.');
    expect(text('10', { ...ctx, status: 'loss' })).toBe('Your card is blocked');
    expect(text('')).toBe('Please enter an amount');
  });

  it('allows exactly the whole balance and exactly the limits', () => {
    const open = { ...ctx, cardBalance: '0', today: '0', loadLimit: '1000', dailyLimit: '1000' };
    expect(checkTopup('500.123456', open)).toBeUndefined();
    expect(checkTopup('100', { ...ctx, today: '0' })).toBeUndefined();
    expect(checkTopup('50', { ...ctx, cardBalance: '0' })).toBeUndefined();
  });

  it('checks the fee on top of the amount, and top-ups on their way under the load limit', () => {
    const withFee = { ...ctx, feePercent: '1', loadLimit: undefined, dailyLimit: undefined };
    expect(text('500', withFee)).toBe('Insufficient balance');
    expect(checkTopup('495', withFee)).toBeUndefined();
    expect(text('60', { ...ctx, pending: '50', dailyLimit: undefined })).toBe(
      'Maximum card balance limit is 1000 USDT.',
    );
  });

  it('checks a blocked card first', () => {
    expect(checkTopup('', { ...ctx, status: 'loss' })?.code).toBe(CARD_ERRORS.cardBlocked);
  });
});

describe('top-up server answers (docs/cards.md#validation, #errors)', () => {
  const limits = { load: '1000', daily: '250' };
  it('shows the limit the error body carries', () => {
    const err = new ApiError(422, [CARD_MONEY_ERRORS.loadLimitExceeded], '', { limit: '5000' });
    expect(topupErrorText(t, err, limits)).toBe('Maximum card balance limit is 5000 USDT.');
    const daily = new ApiError(422, [CARD_MONEY_ERRORS.dailyLimitExceeded], '', { limit: 300 });
    expect(topupErrorText(t, daily, limits)).toBe('Your maximum Top up limit is 300 USDT per day.');
  });

  it('falls back to the card_fee limit when the body has none', () => {
    const err = new ApiError(422, [CARD_MONEY_ERRORS.dailyLimitExceeded], '');
    expect(topupErrorText(t, err, limits)).toBe('Your maximum Top up limit is 250 USDT per day.');
  });

  it('shows the server insufficient-balance refusal as docs/cards.md#errors says', () => {
    const err = new ApiError(422, [CARD_MONEY_ERRORS.insufficientBalance], '');
    expect(topupErrorText(t, err, limits)).toBe('Unable to Top up, please contact customer care.');
    expect(topupErrorText(t, new ApiError(422, [CARD_ERRORS.cardBlocked], ''), limits)).toBe(
      'Your card is blocked',
    );
  });
});

describe('top-up history status (docs/cards.md#states)', () => {
  it('shows failed as Processing', () => {
    expect(t(topupStatusKey({ aasm_state: 'failed', topup_status: 'refunded' }))).toBe('Processing');
    expect(t(topupStatusKey({ aasm_state: 'submitted', topup_status: 'processing' }))).toBe('Processing');
    expect(t(topupStatusKey({ aasm_state: 'settled', topup_status: 'success' }))).toBe('Success');
  });

  it('notes under a declined top-up once its amount is back in the spot wallet (issue 32, item 13)', () => {
    const note = topupStatusNote({ aasm_state: 'failed', topup_status: 'refunded' });
    expect(note && t(note)).toBe(
      'Declined by the card issuer; the amount is back in your spot wallet (the fee is kept).',
    );
    expect(topupStatusNote({ aasm_state: 'failed', topup_status: 'processing' })).toBeUndefined();
    expect(topupStatusNote({ aasm_state: 'settled', topup_status: 'success' })).toBeUndefined();
  });
});

describe('debounce (docs/cards.md#constants: conversion 500 ms after the last keystroke)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('calls once, with the last value, 500 ms after the last call', () => {
    const fn = vi.fn();
    const run = debounce(fn, 500);
    run('1');
    vi.advanceTimersByTime(300);
    run('12');
    vi.advanceTimersByTime(499);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith('12');
  });

  it('drops a pending call on cancel', () => {
    const fn = vi.fn();
    const run = debounce(fn, 500);
    run('1');
    run.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('statement filters (docs/cards.md#validation, #constants)', () => {
  const today = '2024-03-15';
  const draft = (from: string, to: string) => ({
    card_number: '5412 **** **** 1234',
    transaction_type: 'Settled' as const,
    currency: 'USDT' as const,
    date_from: from,
    date_to: to,
  });
  const error = (from: string, to: string) => {
    const result = validateStatement(draft(from, to), today);
    return 'errors' in result ? t(Object.values(result.errors)[0] ?? '') : undefined;
  };

  it('defaults to the last 30 days, which passes', () => {
    const range = defaultStatementRange(today);
    expect(range).toEqual({ date_from: '2024-02-14', date_to: '2024-03-15' });
    expect(validateStatement(draft(range.date_from, range.date_to), today)).toEqual({
      filters: draft(range.date_from, range.date_to),
    });
  });

  it('refuses to before from, with the spec wording and its trailing space', () => {
    expect(error('2024-03-10', '2024-03-09')).toBe('To date must be greater than the From date ');
  });

  it('refuses a span over 30 days', () => {
    expect(error(addDays(today, -(STATEMENT_MAX_DAYS + 1)), today)).toBe(
      'The difference between From and To date should not be more than 30 days',
    );
  });

  it('refuses future dates', () => {
    expect(error('2024-03-15', '2024-03-16')).toBe('Dates in the future are not allowed');
  });

  it('pages by 10 from offset 0', () => {
    expect(pageStart(1, 10)).toBe(0);
    expect(pageStart(3, 10)).toBe(20);
  });

  it('labels trade types and truncates remarks at 25 characters', () => {
    expect(tradeTypeLabel(151)).toBe('Payment');
    expect(tradeTypeLabel(100)).toBe('Top-up');
    expect(tradeTypeLabel(999)).toBe('999');
    expect(truncateRemark('A merchant with a long long name')).toBe('A merchant with a long lo…');
    expect(truncateRemark('Short')).toBe('Short');
  });
});

describe('dev terminal outcome', () => {
  it('reads the network answer: settled is approved, declined keeps its reason', () => {
    expect(readOutcome(201, '{"status":"settled","trade_id":"T1","usdt":"10.87"}')).toEqual({
      approved: true,
      reason: undefined,
      tradeId: 'T1',
    });
    expect(readOutcome(201, '{"status":"declined","reason":"insufficient_funds","trade_id":"T2"}')).toEqual({
      approved: false,
      reason: 'insufficient_funds',
      tradeId: 'T2',
    });
    expect(readOutcome(404, '{"errors":["record.not_found"]}')).toEqual({
      approved: false,
      reason: 'Not found',
      tradeId: undefined,
    });
  });
});
