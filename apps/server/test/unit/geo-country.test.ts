import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CountryResponse, Reader } from 'mmdb-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { countryLookupFor, loadCountryDatabase, NO_COUNTRY_LOOKUP } from '../../src/net/geo-country.ts';
import { buildMmdb, countryRecord, uint32, writeTestCountryDb } from '../support/mmdb-writer.ts';

// Issue 31, part 1: the country of a login's address from a MaxMind DB file. No GeoIP file can be downloaded here,
// so the test support writes one from the format's specification and the real reader (mmdb-lib) reads it.
const dir = mkdtempSync(path.join(tmpdir(), 'geoip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const countryDb = path.join(dir, 'country.mmdb');
writeTestCountryDb(countryDb);

describe('the test MMDB writer, read by mmdb-lib', () => {
  it('writes an IPv6 GeoLite2-Country-shaped file whose metadata and records the reader decodes', async () => {
    const { readFileSync } = await import('node:fs');
    const reader = new Reader<CountryResponse>(readFileSync(countryDb));
    expect(reader.metadata).toMatchObject({
      binaryFormatMajorVersion: 2,
      binaryFormatMinorVersion: 0,
      databaseType: 'GeoLite2-Country',
      ipVersion: 6,
      recordSize: 24,
      languages: ['en'],
    });
    expect(reader.metadata.nodeCount).toBeGreaterThan(96);
    expect(reader.get('198.51.100.7')?.country).toMatchObject({ iso_code: 'AT', names: { en: 'Austria' } });
    expect(reader.get('203.0.113.250')?.country?.iso_code).toBe('DE');
    expect(reader.get('192.0.2.1')?.continent?.code).toBe('EU');
    expect(reader.get('2001:db8:1::5')?.country?.iso_code).toBe('CH');
    expect(reader.get('198.51.101.1')).toBeNull();
    expect(reader.get('8.8.8.8')).toBeNull();
    expect(reader.get('2001:db9::1')).toBeNull();
    const [, prefix] = reader.getWithPrefixLength('2001:db8::1');
    expect(prefix).toBe(32);
  });

  it('writes an IPv4 database, long strings (extended size bytes), arrays, booleans and uint32s', () => {
    const long = 'x'.repeat(300);
    const reader = new Reader<Record<string, unknown>>(
      buildMmdb({
        ipVersion: 4,
        databaseType: 'Test-Types',
        networks: [
          {
            network: '10.0.0.0/8',
            data: { a: 'y'.repeat(40), b: long, c: [1, 2, true, false], d: uint32(70_000) },
          },
          { network: '11.1.1.1/32', data: { e: 65_535 } },
        ],
      }),
    );
    expect(reader.metadata.ipVersion).toBe(4);
    expect(reader.get('10.9.8.7')).toEqual({ a: 'y'.repeat(40), b: long, c: [1, 2, true, false], d: 70_000 });
    expect(reader.get('11.1.1.1')).toEqual({ e: 65_535 });
    expect(reader.get('11.1.1.2')).toBeNull();
  });
});

describe('loadCountryDatabase (GEOIP_COUNTRY_DB)', () => {
  const lookup = loadCountryDatabase(countryDb);

  it("gives a public address's ISO country code, also written as IPv4-mapped IPv6", () => {
    expect(lookup.countryOf('198.51.100.7')).toBe('AT');
    expect(lookup.countryOf('::ffff:198.51.100.7')).toBe('AT');
    expect(lookup.countryOf('203.0.113.9')).toBe('DE');
    expect(lookup.countryOf('2001:db8::42')).toBe('CH');
  });

  it('gives no country for loopback, private, link-local, unknown or malformed addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.2.0.1',
      '192.168.1.1',
      '172.16.0.9',
      'fe80::1',
    ])
      expect(lookup.countryOf(ip), ip).toBeNull();
    for (const ip of ['8.8.8.8', '2a00::1', 'not-an-ip', '']) expect(lookup.countryOf(ip), ip).toBeNull();
  });

  it('is off without the setting, and in a process without the api role', () => {
    expect(countryLookupFor({ geoipCountryDb: undefined, roles: new Set(['api']) })).toBe(NO_COUNTRY_LOOKUP);
    expect(countryLookupFor({ geoipCountryDb: countryDb, roles: new Set(['worker']) })).toBe(
      NO_COUNTRY_LOOKUP,
    );
    expect(
      countryLookupFor({ geoipCountryDb: countryDb, roles: new Set(['api']) }).countryOf('203.0.113.1'),
    ).toBe('DE');
  });

  it('refuses a missing file, a directory, a file too large, a file that is no MaxMind DB, and a non-country one', () => {
    const refusal = (file: string, maxBytes?: number) => {
      try {
        loadCountryDatabase(file, maxBytes);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal(path.join(dir, 'missing.mmdb'))).toMatch(
      /^Invalid configuration: GEOIP_COUNTRY_DB: .*missing\.mmdb: cannot be read \(ENOENT\)$/,
    );
    expect(refusal(dir)).toMatch(/GEOIP_COUNTRY_DB: .*: not a file$/);
    expect(refusal(countryDb, 100)).toMatch(/GEOIP_COUNTRY_DB: .*: \d+ bytes, larger than the 100 a country/);
    const junk = path.join(dir, 'junk.mmdb');
    writeFileSync(junk, 'this is not a MaxMind database at all, just some text'.repeat(20));
    expect(refusal(junk)).toMatch(/GEOIP_COUNTRY_DB: .*junk\.mmdb: not a MaxMind DB file/);
    const asn = path.join(dir, 'asn.mmdb');
    writeFileSync(
      asn,
      buildMmdb({
        ipVersion: 6,
        databaseType: 'GeoLite2-ASN',
        networks: [{ network: '1.0.0.0/8', data: countryRecord('AU', 'Australia') }],
      }),
    );
    expect(refusal(asn)).toMatch(/database_type "GeoLite2-ASN" has no countries/);
  });
});
