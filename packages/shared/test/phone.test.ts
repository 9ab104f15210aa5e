import { describe, expect, it } from 'vitest';
import { callingCode, mobileFromInternational, mobileFromNational, phoneLookupKey } from '../src/phone.ts';

/** One form for every phone number (issue 32, accounts item 12): E.164 digits, mobiles only. */
describe('mobile numbers as E.164 digits', () => {
  it('makes the same mobile typed with and without its trunk 0 one number', () => {
    expect(mobileFromNational('0664 1234567', 'AT')).toBe('436641234567');
    expect(mobileFromNational('6641234567', 'AT')).toBe('436641234567');
    expect(mobileFromNational('09012345678', 'JP')).toBe('819012345678');
    expect(mobileFromNational('9012345678', 'jp')).toBe('819012345678');
    expect(mobileFromNational('09876543210', 'IN')).toBe('919876543210');
    expect(mobileFromNational('01012345678', 'KR')).toBe('821012345678');
  });

  it('reads full numbers with a +, spaces or a trunk 0 after the calling code', () => {
    for (const typed of ['436641234567', '+43 664 1234567', '4306641234567', '+43 (0) 664 1234567'])
      expect(mobileFromInternational(typed)).toBe('436641234567');
    expect(mobileFromInternational('436641234567', 'AT')).toBe('436641234567');
  });

  it('refuses what cannot be a mobile of the chosen country', () => {
    // A Vienna landline, a number of another country, too short, too long, not a number.
    expect(mobileFromNational('01 234567890', 'AT')).toBeUndefined();
    expect(mobileFromInternational('431234567890')).toBeUndefined();
    expect(mobileFromInternational('819012345678', 'AT')).toBeUndefined();
    expect(mobileFromNational('9123456789', 'JP')).toBeUndefined();
    expect(mobileFromNational('664', 'AT')).toBeUndefined();
    expect(mobileFromNational('66412345678901234', 'AT')).toBeUndefined();
    expect(mobileFromNational('', 'AT')).toBeUndefined();
    expect(mobileFromNational('6641234567', 'XX')).toBeUndefined();
    expect(mobileFromNational('6641234567', undefined)).toBeUndefined();
  });

  it('looks a login up by the mobile, or by the digits of anything else', () => {
    expect(phoneLookupKey('4306641234567')).toBe('436641234567');
    expect(phoneLookupKey('431234567890')).toBe('431234567890');
    expect(callingCode('at')).toBe('43');
    expect(callingCode('XX')).toBeUndefined();
  });
});
