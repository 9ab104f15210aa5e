import { describe, expect, it } from 'vitest';
import { countryLabel, loginCountry } from '../../src/features/settings/security-log-country.ts';

// Issue 31, part 1: the Security log shows the country a login came from (data.country) where the server has one.
describe('the security log country', () => {
  it('reads an ISO code from the entry data, and nothing else', () => {
    expect(loginCountry({ device: 'Firefox/Windows', country: 'DE', new_country: true })).toBe('DE');
    expect(loginCountry({ device: 'Firefox/Windows' })).toBeNull();
    expect(loginCountry({ country: 'Germany' })).toBeNull();
    expect(loginCountry({ country: 7 })).toBeNull();
  });

  it('names the country with its code, falling back to the code', () => {
    expect(countryLabel('AT')).toBe('Austria (AT)');
    expect(countryLabel('DE', 'de')).toBe('Deutschland (DE)');
    expect(countryLabel('AA')).toBe('AA');
  });
});
