/** A timestamp as PostgreSQL reads it (`2026-11-23 20:00:00+00`, ISO 8601), in ms; undefined if unreadable. */
export function parseTimestamp(text: string): number | undefined {
  const iso = text
    .trim()
    .replace(' ', 'T')
    .replace(/([+-]\d\d)$/, '$1:00');
  const at = Date.parse(iso);
  return Number.isNaN(at) || !/[zZ]|[+-]\d\d(:?\d\d)?$/.test(iso) ? undefined : at;
}
