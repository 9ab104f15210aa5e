import { readFileSync } from 'node:fs';
import { AML_RULES, toUnits } from '@exchange/shared';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  evaluate,
  type MonitoredOperation,
  type RuleContext,
} from '../../src/modules/compliance/monitoring/rules.ts';
import { decimalRate, eurCents } from '../../src/modules/compliance/monitoring/valuation.ts';
import { eurCents as travelRuleEurCents } from '../../src/modules/compliance/travel-rule/valuation.ts';

/**
 * Issue 33: no rule sees a JavaScript float. Where EUR values are made: monitoring/valuation.ts (`eurCents`, the
 * monitor's, from the amount column's text through `toUnits`) and travel-rule/valuation.ts (`eurCents`, the
 * self-hosted threshold's); monitoring/rules.ts compares them. This file fails if a number creeps in: in the types
 * (checked by `npm run typecheck`), at run time, on an amount a float gets wrong, and in the sources themselves.
 */
const ctx: RuleContext = {
  level: 3,
  linkedBefore: 0n,
  linkedIds: [],
  recentIn: 0n,
  recentOut: 0n,
  recentIds: [],
  highRiskCountries: new Set(),
};

describe('EUR values are bigint cents, never a float', () => {
  it('in the types every rule reads', () => {
    expectTypeOf<MonitoredOperation['eurCents']>().toEqualTypeOf<bigint | null>();
    expectTypeOf<RuleContext['linkedBefore']>().toEqualTypeOf<bigint>();
    expectTypeOf<RuleContext['recentIn']>().toEqualTypeOf<bigint>();
    expectTypeOf<RuleContext['recentOut']>().toEqualTypeOf<bigint>();
    expectTypeOf(eurCents).returns.toEqualTypeOf<bigint>();
    expectTypeOf(travelRuleEurCents).returns.toEqualTypeOf<bigint>();
  });

  it('and at run time: a number given as EUR cents is refused', () => {
    const asNumber = { id: 1, kind: 'deposit', eurCents: 1_500_000, counterpartyCountry: null } as const;
    // @ts-expect-error the compiler refuses a number; at run time bigint arithmetic throws rather than mix them.
    expect(() => evaluate(asNumber, ctx)).toThrow(TypeError);
  });

  it('values exactly EUR 15,000.00 where a float makes it one cent less, and the alert opens', () => {
    // 48,828.125 TRX at EUR 0.3072 is EUR 15,000.00 exactly. In floats it is 14,999.999999999998: one cent under
    // the threshold after rounding down, and the alert would be missed.
    expect(Math.floor(48828.125 * 0.3072 * 100)).toBe(1_499_999);
    // The monitor's path: the amount column's text to units (18 decimals), then one integer division.
    const cents = eurCents(toUnits('48828.125', 18), 18, decimalRate('0.3072'));
    expect(cents).toBe(1_500_000n);
    expect(
      evaluate({ id: 1, kind: 'withdrawal', eurCents: cents, counterpartyCountry: null }, ctx).map(
        (h) => h.rule,
      ),
    ).toEqual([AML_RULES.single]);
    // The same at 18 decimals and a tiny price: 50,000,000 tokens at EUR 0.0003.
    expect(Math.floor(50_000_000 * 0.0003 * 100)).toBe(1_499_999);
    expect(eurCents(toUnits('50000000', 18), 18, decimalRate('0.0003'))).toBe(1_500_000n);
  });

  it('in the sources that value and compare: no Number(), parseFloat, Math or toFixed', () => {
    const files = [
      '../../src/modules/compliance/monitoring/rules.ts',
      '../../src/modules/compliance/monitoring/valuation.ts',
      '../../src/modules/compliance/monitoring/monitor.ts',
      '../../src/modules/compliance/travel-rule/valuation.ts',
      '../../src/modules/compliance/travel-rule/withdrawal-check.ts',
    ];
    const float =
      /\bNumber\s*\(|\bparseFloat\b|\bparseInt\b|\bMath\.|\.toFixed\b|\.toPrecision\b|\bNumber\.parse/;
    for (const file of files) {
      const code = readFileSync(new URL(file, import.meta.url), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      expect([file, code.match(float)?.[0] ?? null]).toEqual([file, null]);
    }
  });
});
