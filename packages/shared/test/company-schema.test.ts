import { describe, expect, it } from 'vitest';
import {
  COMPANY_ERRORS,
  companySchema,
  errorCodes,
  percentUnits,
  registerExtractDateError,
  registerSchema,
} from '../src/index.ts';

const COMPANY = {
  name: 'Sakura Trading GmbH',
  registration_number: 'HRB 123456',
  country: 'DEU',
  address: 'Unter den Linden 1, Berlin',
  representatives: [{ name: 'Priya Sharma', role: 'director', ownership: null }],
};
const withPeople = (representatives: unknown[]) => ({ ...COMPANY, representatives });
const codes = (value: unknown) => {
  const parsed = companySchema.safeParse(value);
  return parsed.success ? [] : errorCodes(parsed.error);
};

describe('the company schema (issue 31: beneficial owners of 25 % plus one share)', () => {
  it('reads shares as exact decimals', () => {
    expect(percentUnits('25')).toBe(250_000n);
    expect(percentUnits('25.0001')).toBe(250_001n);
    expect(percentUnits('0.5')).toBe(5_000n);
    expect(percentUnits('100.0000')).toBe(1_000_000n);
  });

  it('asks anyone above 25 % to be a beneficial owner, and a beneficial owner to be above 25 %', () => {
    expect(codes(COMPANY)).toEqual([]);
    expect(
      codes(
        withPeople([
          ...COMPANY.representatives,
          { name: 'Kenji Sato', role: 'shareholder', ownership: '25' },
        ]),
      ),
    ).toEqual([]);
    expect(
      codes(
        withPeople([
          ...COMPANY.representatives,
          { name: 'Kenji Sato', role: 'shareholder', ownership: '25.0001' },
        ]),
      ),
    ).toEqual([COMPANY_ERRORS.ownerNotBeneficial]);
    expect(
      codes(withPeople([...COMPANY.representatives, { name: 'Kenji Sato', role: 'ubo', ownership: '25' }])),
    ).toEqual([COMPANY_ERRORS.beneficialOwnerShare]);
    expect(
      codes(
        withPeople([
          ...COMPANY.representatives,
          { name: 'Kenji Sato', role: 'ubo', ownership: '50.0001' },
          { name: 'Anna Berg', role: 'ubo', ownership: '50' },
        ]),
      ),
    ).toEqual([COMPANY_ERRORS.ownershipOverHundred]);
    expect(codes(withPeople([{ name: 'Kenji Sato', role: 'ubo', ownership: '30' }]))).toEqual([
      COMPANY_ERRORS.representativeMissing,
    ]);
    for (const ownership of ['100.1', '-1', '1e2', '12.34567', ' 30'])
      expect(
        codes(withPeople([...COMPANY.representatives, { name: 'Kenji Sato', role: 'ubo', ownership }])),
      ).toContain(COMPANY_ERRORS.invalidOwnership);
    expect(codes({ ...COMPANY, country: 'de' })).toEqual([COMPANY_ERRORS.invalidCountry]);
  });
});

describe('the register extract date (under one year old)', () => {
  const today = '2026-11-29';
  it('accepts today back to 365 days ago, refuses older, future and impossible dates', () => {
    expect(registerExtractDateError('2026-11-29', today)).toBeNull();
    expect(registerExtractDateError('2025-11-29', today)).toBeNull();
    expect(registerExtractDateError('2025-11-28', today)).toBe(COMPANY_ERRORS.extractOutdated);
    expect(registerExtractDateError('2026-11-30', today)).toBe(COMPANY_ERRORS.extractFutureDate);
    expect(registerExtractDateError('2026-02-30', today)).toBe(COMPANY_ERRORS.extractInvalidDate);
    expect(registerExtractDateError('29.11.2026', today)).toBe(COMPANY_ERRORS.extractInvalidDate);
  });
});

describe('registration account type', () => {
  it('defaults to personal and refuses other values', () => {
    const body = {
      first_name: 'Priya',
      last_name: 'Sharma',
      email: 'priya@example.com',
      country: 'IN',
      country_code: '91',
      phone_number: '9876543210',
      password: 'Tr4ding-Desk#Nova',
    };
    expect(registerSchema.parse(body).account_type).toBe('personal');
    expect(registerSchema.parse({ ...body, account_type: 'business' }).account_type).toBe('business');
    const odd = registerSchema.safeParse({ ...body, account_type: 'corporate' });
    expect(odd.success ? [] : errorCodes(odd.error)).toEqual([COMPANY_ERRORS.invalidAccountType]);
  });
});
