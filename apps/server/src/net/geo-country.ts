import { readFileSync, statSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { type CountryResponse, Reader } from 'mmdb-lib';
import { ConfigError } from '../config.ts';
import { canonicalClientIp } from './ip-rules.ts';

/**
 * The country a client address is in, as an ISO 3166-1 alpha-2 code (`DE`), or null when it is not known: no
 * database, an address the database has no country for, or an address that is in no country (private, loopback).
 */
export interface CountryLookup {
  countryOf(ip: string): string | null;
}

/** No GEOIP_COUNTRY_DB: no address has a country, so logins are checked for new devices only. */
export const NO_COUNTRY_LOOKUP: CountryLookup = { countryOf: () => null };

/** The largest file GEOIP_COUNTRY_DB may name (GeoLite2-Country is ~10 MB, GeoIP2-City ~120 MB). */
export const GEOIP_MAX_BYTES = 200 * 2 ** 20;

/**
 * Addresses no GeoIP country applies to: this machine, private networks, link-local, shared (CGNAT) space and the
 * unspecified address. A proxy in front that is not trusted (TRUST_PROXY) makes every client look like one of these.
 */
const NO_COUNTRY_RANGES = (() => {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ] as const)
    list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
  ] as const)
    list.addSubnet(net, prefix, 'ipv6');
  return list;
})();

const ISO_CODE = /^[A-Z]{2}$/;

/**
 * A country lookup over a MaxMind DB file held in memory (GeoLite2-Country or GeoIP2-Country; a City database has
 * the same `country.iso_code` and works too). The file is read once; each lookup walks the in-memory tree, so it
 * is cheap, but it is still made only at a login (never per request).
 */
class MmdbCountryLookup implements CountryLookup {
  constructor(private readonly reader: Reader<CountryResponse>) {}

  countryOf(ip: string): string | null {
    const address = canonicalClientIp(ip);
    if (!address) return null;
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (NO_COUNTRY_RANGES.check(address, family)) return null;
    // An IPv6 address in an IPv4-only database has no record; the reader says so by throwing.
    if (family === 'ipv6' && this.reader.metadata.ipVersion === 4) return null;
    try {
      const code = this.reader.get(address)?.country?.iso_code;
      return typeof code === 'string' && ISO_CODE.test(code) ? code : null;
    } catch {
      // A damaged record must not fail a login: the country is then unknown, as without a database.
      return null;
    }
  }
}

/**
 * Loads the MaxMind DB file GEOIP_COUNTRY_DB names, once, at start.
 * @throws ConfigError naming GEOIP_COUNTRY_DB when the file is missing, larger than `maxBytes` or no MaxMind DB,
 *   so the process stops with one clear line rather than running without the country check the operator asked for.
 */
export function loadCountryDatabase(file: string, maxBytes = GEOIP_MAX_BYTES): CountryLookup {
  const fail = (why: string) => new ConfigError(`Invalid configuration: GEOIP_COUNTRY_DB: ${file}: ${why}`);
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw fail('not a file');
    size = stat.size;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw fail(`cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  if (size > maxBytes) throw fail(`${size} bytes, larger than the ${maxBytes} a country database may have`);
  let reader: Reader<CountryResponse>;
  try {
    reader = new Reader<CountryResponse>(readFileSync(file));
  } catch (err) {
    throw fail(`not a MaxMind DB file (${err instanceof Error ? err.message : String(err)})`);
  }
  const { binaryFormatMajorVersion: major, ipVersion, databaseType } = reader.metadata;
  if (major !== 2) throw fail(`MaxMind DB format version ${major}, expected 2`);
  if (ipVersion !== 4 && ipVersion !== 6) throw fail(`ip_version ${ipVersion}, expected 4 or 6`);
  if (!/country|city|enterprise/i.test(databaseType ?? ''))
    throw fail(`database_type "${databaseType}" has no countries (use GeoLite2-Country or GeoIP2-Country)`);
  return new MmdbCountryLookup(reader);
}

/**
 * The lookup a process uses: GEOIP_COUNTRY_DB's database in a process that serves the api (where logins are),
 * else none. Called once at start.
 * @throws ConfigError as {@link loadCountryDatabase} does.
 */
export function countryLookupFor(config: {
  geoipCountryDb: string | undefined;
  roles: ReadonlySet<string>;
}): CountryLookup {
  return config.geoipCountryDb && config.roles.has('api')
    ? loadCountryDatabase(config.geoipCountryDb)
    : NO_COUNTRY_LOOKUP;
}
