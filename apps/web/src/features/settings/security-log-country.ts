/**
 * The country a login came from, as the security log's entry records it (`data.country`, an ISO 3166-1 alpha-2
 * code the server sets when GEOIP_COUNTRY_DB is configured), or null for entries without one.
 */
export function loginCountry(details: Record<string, unknown>): string | null {
  const code = details.country;
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
}

/** "Germany (DE)" in the given language, or the bare code where the browser has no name for it. */
export function countryLabel(code: string, language = 'en'): string {
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'code' }).of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}
