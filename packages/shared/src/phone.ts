import {
  type CountryCode,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/mobile';

/**
 * Phone numbers in one form everywhere (issue 32): the digits of the E.164 number, without its `+` (the form
 * Barong's `phone_number` and `phones[].number` carry: the country code, then the national number without its
 * trunk prefix). libphonenumber-js with its mobile metadata parses and checks them, so `0664 1234567` and
 * `664 1234567` typed for Austria are one number, `436641234567`, and a number that cannot be a mobile number of
 * the chosen country's numbering plan is refused. Used by the shared schemas (server and web) and the server.
 */

/** The calling code of an ISO 3166-1 alpha-2 country (`AT` → `43`), or undefined when there is none. */
export function callingCode(country: string | undefined): string | undefined {
  const iso = country?.trim().toUpperCase();
  return iso && isSupportedCountry(iso) ? getCountryCallingCode(iso as CountryCode) : undefined;
}

/** E.164 digits of a parsed mobile number, or undefined when it is no valid mobile number. */
function mobileDigits(parsed: ReturnType<typeof parsePhoneNumberFromString>): string | undefined {
  return parsed?.isValid() ? parsed.number.slice(1) : undefined;
}

/**
 * A mobile number typed in its national form for `country` (the registration's number field): its E.164 digits,
 * or undefined when it cannot be a mobile number of that country. A trunk prefix (`0`) may be typed or not.
 */
export function mobileFromNational(national: string, country: string | undefined): string | undefined {
  const digits = national.replace(/\D/g, '');
  const code = callingCode(country);
  if (!digits || !code || !country) return undefined;
  return mobileDigits(parsePhoneNumberFromString(digits, country.trim().toUpperCase() as CountryCode));
}

/**
 * A full number (the calling code, then the national number; a `+`, spaces and a trunk `0` after the calling
 * code are all taken): its E.164 digits when it is a mobile number, of `country`'s numbering plan when one is
 * given; else undefined.
 */
export function mobileFromInternational(full: string, country?: string): string | undefined {
  const digits = full.replace(/\D/g, '');
  if (!digits) return undefined;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (country !== undefined && country !== '' && parsed?.countryCallingCode !== callingCode(country))
    return undefined;
  return mobileDigits(parsed);
}

/**
 * The form a number typed at login is looked up (and counted for the lockout) by: its E.164 digits when it is a
 * mobile number, else its digits as they are, so a number stored before it was normalised (a landline of an old
 * account) still finds its account.
 */
export function phoneLookupKey(full: string): string {
  return mobileFromInternational(full) ?? full.replace(/\D/g, '');
}
