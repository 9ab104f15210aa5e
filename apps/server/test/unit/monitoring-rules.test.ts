import { AML_RULES } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { pepActive, ruleClass } from '../../src/modules/compliance/monitoring/risk.ts';
import {
  evaluate,
  type MonitoredOperation,
  type RuleContext,
} from '../../src/modules/compliance/monitoring/rules.ts';
import { decimalRate, eurCents } from '../../src/modules/compliance/monitoring/valuation.ts';

const ctx = (over: Partial<RuleContext> = {}): RuleContext => ({
  level: 3,
  linkedBefore: 0n,
  linkedIds: [],
  recentIn: 0n,
  recentOut: 0n,
  recentIds: [],
  highRiskCountries: new Set(['KP', 'IR']),
  ...over,
});
const op = (eur: bigint | null, over: Partial<MonitoredOperation> = {}): MonitoredOperation => ({
  id: 9,
  kind: 'deposit',
  eurCents: eur,
  counterpartyCountry: null,
  ...over,
});
const rules = (o: MonitoredOperation, c: RuleContext) => evaluate(o, c).map((h) => h.rule);

describe('EUR valuation', () => {
  it('is exact in cents, rounded down, with no float', () => {
    // 16,304.35 USDT (6 decimals) at 0.92 EUR/USDT = 15,000.002 EUR -> 1,500,000 cents.
    expect(eurCents(16_304_350_000n, 6, decimalRate('0.92'))).toBe(1_500_000n);
    // 16,304.34 USDT = 14,999.9928 EUR -> one cent below.
    expect(eurCents(16_304_340_000n, 6, decimalRate('0.92'))).toBe(1_499_999n);
    // 0.1 + 0.2 style: 0.3 BTC at 50,000.01 EUR is exactly 15,000.003 EUR.
    expect(eurCents(30_000_000n, 8, { num: 5_000_001n, den: 100n })).toBe(1_500_000n);
    // EUR itself (2 decimals) is its own cents.
    expect(eurCents(1_500_000n, 2, { num: 1n, den: 1n })).toBe(1_500_000n);
  });
});

describe('single operation of EUR 15,000 or more', () => {
  it('hits at exactly 15,000.00 and not one cent below', () => {
    expect(rules(op(1_500_000n), ctx())).toEqual([AML_RULES.single]);
    expect(rules(op(1_499_999n), ctx())).toEqual([]);
  });
});

describe('linked operations', () => {
  it('hits on the operation that brings the window to exactly 15,000.00', () => {
    const hits = evaluate(op(500_000n), ctx({ linkedBefore: 1_000_000n, linkedIds: [1, 2] }));
    expect(hits.map((h) => h.rule)).toEqual([AML_RULES.linked]);
    expect(hits[0]).toMatchObject({ eurCents: 1_500_000n, operationIds: [1, 2, 9] });
    expect(hits[0]?.facts.window_total_eur).toBe('15000');
  });

  it('not one cent below, and not again once the window is over the line', () => {
    expect(rules(op(499_999n), ctx({ linkedBefore: 1_000_000n }))).toEqual([]);
    expect(rules(op(100n), ctx({ linkedBefore: 1_500_000n }))).toEqual([]);
  });

  it('leaves a single large operation to the single rule', () => {
    expect(rules(op(1_500_000n), ctx({ linkedBefore: 10n }))).toEqual([AML_RULES.single]);
  });
});

describe('identification threshold (EUR 1,000) below level 3', () => {
  it('hits at exactly 1,000.00 for level 2, not one cent below, never for level 3', () => {
    expect(rules(op(100_000n), ctx({ level: 2 }))).toEqual([AML_RULES.identification]);
    expect(rules(op(99_999n), ctx({ level: 2 }))).toEqual([]);
    expect(rules(op(100_000n), ctx({ level: 3 }))).toEqual([]);
  });
});

describe('rapid in-and-out', () => {
  it('hits a withdrawal taking half of what just came in, in EUR across currencies', () => {
    const w = op(50_000n, { kind: 'withdrawal' });
    expect(rules(w, ctx({ recentIn: 100_000n, recentOut: 50_000n, recentIds: [3] }))).toEqual([
      AML_RULES.rapidInOut,
    ]);
    expect(rules(w, ctx({ recentIn: 100_001n, recentOut: 50_000n }))).toEqual([]);
    expect(rules(w, ctx({ recentIn: 0n, recentOut: 50_000n }))).toEqual([]);
    // A deposit is never the "out" side.
    expect(rules(op(50_000n), ctx({ recentIn: 50_000n, recentOut: 50_000n }))).toEqual([]);
  });
});

describe('high-risk territory', () => {
  it('hits a deposit from or withdrawal to a listed country, even unvalued; not a swap', () => {
    expect(rules(op(null, { counterpartyCountry: 'ir' }), ctx())).toEqual([AML_RULES.highRiskTerritory]);
    expect(rules(op(1n, { kind: 'transfer_out', counterpartyCountry: 'KP' }), ctx())).toEqual([
      AML_RULES.highRiskTerritory,
    ]);
    expect(rules(op(1n, { counterpartyCountry: 'PL' }), ctx())).toEqual([]);
    expect(rules(op(1n, { kind: 'swap', counterpartyCountry: 'KP' }), ctx())).toEqual([]);
  });
});

describe('risk classes', () => {
  it('PEP status lasts one year after leaving office, to the day', () => {
    expect(pepActive(true, null, '2026-11-29')).toBe(true);
    expect(pepActive(true, '2025-11-30', '2026-11-29')).toBe(true);
    expect(pepActive(true, '2025-11-29', '2026-11-29')).toBe(false);
    expect(pepActive(false, null, '2026-11-29')).toBe(false);
  });

  it('is high for a listed country, PEP or a report; average for a business or an open alert', () => {
    expect(ruleClass([])).toBe('low');
    expect(ruleClass(['business'])).toBe('average');
    expect(ruleClass(['alerts.open'])).toBe('average');
    expect(ruleClass(['business', 'pep'])).toBe('high');
    expect(ruleClass(['country.high_risk'])).toBe('high');
    expect(ruleClass(['alerts.reported'])).toBe('high');
  });
});
