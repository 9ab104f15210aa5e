import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS, loginIdentifierInput } from '../../src/features/auth/schemas.ts';

describe('the login identifier as typed (docs/accounts.md#validation, #constants; issue 32, accounts item 5)', () => {
  it('cuts a phone number of digits to 12', () => {
    expect(LOGIN_LIMITS.phoneMax).toBe(12);
    expect(loginIdentifierInput('1234567890123456')).toBe('123456789012');
    expect(loginIdentifierInput('123456789012')).toBe('123456789012');
  });

  it('leaves emails, also those whose name is digits, and numbers with other characters', () => {
    expect(loginIdentifierInput('123456789012@example.com')).toBe('123456789012@example.com');
    expect(loginIdentifierInput('alice@example.com')).toBe('alice@example.com');
    expect(loginIdentifierInput('1234567890123ab')).toBe('1234567890123ab');
  });
});
