import { writeFileSync } from 'node:fs';
import { isIP } from 'node:net';

/**
 * A small writer of MaxMind DB files (the `.mmdb` format, "MaxMind DB File Format Specification" v2.0), written
 * from the specification so the GeoIP tests run on real bytes without a downloaded database:
 * - a binary search tree of 24-bit records (one node: left record, right record, 3 bytes each, big-endian), one
 *   level per address bit; a record is a node number, `node_count` (no data), or `node_count + 16 + offset` into
 *   the data section;
 * - 16 zero bytes (the data section separator);
 * - the data section: fields opening with a control byte (type in the top 3 bits, extended types as 0 plus a
 *   byte of type − 7, then the size in the low 5 bits with 29/30/31 for 1-3 more size bytes);
 * - "\xAB\xCD\xEFMaxMind.com" and the metadata map.
 * Networks may not overlap. In an IPv6 database (ip_version 6, as GeoLite2's) an IPv4 network is stored in the
 * first 32 bits of the address space (`::a.b.c.d`, i.e. under `::/96`), where readers look IPv4 addresses up.
 */

/** A value with a fixed integer type; a plain number is a uint16 when it fits, else a uint32. */
export class MmdbInt {
  constructor(
    readonly type: 'uint16' | 'uint32' | 'uint64',
    readonly value: bigint,
  ) {}
}

/** A value the data section can hold (the types the country databases use). */
export type MmdbValue = string | number | boolean | MmdbInt | MmdbValue[] | { [key: string]: MmdbValue };

export const uint16 = (n: number) => new MmdbInt('uint16', BigInt(n));
export const uint32 = (n: number) => new MmdbInt('uint32', BigInt(n));
export const uint64 = (n: number | bigint) => new MmdbInt('uint64', BigInt(n));

const TYPE = { utf8: 2, uint16: 5, uint32: 6, map: 7, uint64: 9, array: 11, boolean: 14 } as const;
const MAX_BYTES = { uint16: 2, uint32: 4, uint64: 8 } as const;

/** The control byte(s) of a field: its type and its payload size (or, for maps and arrays, entry count). */
function control(type: number, size: number): number[] {
  const head = type <= 7 ? type << 5 : 0;
  const extended = type <= 7 ? [] : [type - 7];
  if (size < 29) return [head | size, ...extended];
  if (size < 285) return [head | 29, ...extended, size - 29];
  if (size < 65_821) {
    const rest = size - 285;
    return [head | 30, ...extended, rest >> 8, rest & 0xff];
  }
  const rest = size - 65_821;
  if (rest >= 2 ** 24) throw new Error(`mmdb field of ${size} is too large`);
  return [head | 31, ...extended, rest >> 16, (rest >> 8) & 0xff, rest & 0xff];
}

/** An unsigned integer in as few big-endian bytes as it needs (0 bytes for zero). */
function uintBytes(value: bigint, maxBytes: number): number[] {
  if (value < 0n || value >= 1n << BigInt(maxBytes * 8))
    throw new Error(`${value} does not fit ${maxBytes} bytes`);
  const out: number[] = [];
  for (let v = value; v > 0n; v >>= 8n) out.unshift(Number(v & 0xffn));
  return out;
}

/** One data field, encoded (no pointers: every value is written in full). */
export function encodeValue(value: MmdbValue): number[] {
  if (typeof value === 'string') {
    const bytes = [...Buffer.from(value, 'utf8')];
    return [...control(TYPE.utf8, bytes.length), ...bytes];
  }
  if (typeof value === 'boolean') return control(TYPE.boolean, value ? 1 : 0);
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) throw new Error(`only unsigned integers: ${value}`);
    return encodeValue(value <= 0xffff ? uint16(value) : uint32(value));
  }
  if (value instanceof MmdbInt) {
    const bytes = uintBytes(value.value, MAX_BYTES[value.type]);
    return [...control(TYPE[value.type], bytes.length), ...bytes];
  }
  if (Array.isArray(value)) return [...control(TYPE.array, value.length), ...value.flatMap(encodeValue)];
  const entries = Object.entries(value);
  return [
    ...control(TYPE.map, entries.length),
    ...entries.flatMap(([key, v]) => [...encodeValue(key), ...encodeValue(v)]),
  ];
}

/** The bits of a network's prefix, most significant first, in the database's address space. */
function prefixBits(cidr: string, ipVersion: 4 | 6): number[] {
  const [address = '', length] = cidr.split('/');
  const family = isIP(address);
  if (family === 0) throw new Error(`not an address: ${cidr}`);
  const bytes = family === 4 ? address.split('.').map(Number) : ipv6Bytes(address);
  let prefix = length === undefined ? bytes.length * 8 : Number(length);
  let all = bytes;
  if (family === 6 && ipVersion === 4) throw new Error(`IPv6 network ${cidr} in an IPv4 database`);
  if (family === 4 && ipVersion === 6) {
    // IPv4 in an IPv6 tree: the first 32 bits of the space, after 96 zero bits.
    all = [...new Array<number>(12).fill(0), ...bytes];
    prefix += 96;
  }
  const bits: number[] = [];
  for (let i = 0; i < prefix; i++) bits.push(((all[i >> 3] ?? 0) >> (7 - (i & 7))) & 1);
  return bits;
}

function ipv6Bytes(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

interface TreeNode {
  children: [Child, Child];
}
type Child = TreeNode | { data: number } | null;

const isNode = (c: Child): c is TreeNode => c !== null && 'children' in c;

export interface MmdbOptions {
  ipVersion: 4 | 6;
  databaseType: string;
  /** Each network (`198.51.100.0/24`, `2001:db8::/32`) and its record. */
  networks: { network: string; data: MmdbValue }[];
  description?: Record<string, string>;
  languages?: string[];
  buildEpoch?: number;
}

/** The bytes of a MaxMind DB file with these networks. */
export function buildMmdb(options: MmdbOptions): Buffer {
  const root: TreeNode = { children: [null, null] };
  // The data section: each record once, at its offset.
  const data: number[] = [];
  for (const { network, data: value } of options.networks) {
    const bits = prefixBits(network, options.ipVersion);
    if (bits.length === 0) throw new Error('a network needs a prefix of at least one bit');
    const offset = data.length;
    data.push(...encodeValue(value));
    let node = root;
    for (const [i, bit] of bits.entries()) {
      const last = i === bits.length - 1;
      const child = node.children[bit as 0 | 1];
      if (last) {
        if (child !== null) throw new Error(`network ${network} overlaps another`);
        node.children[bit as 0 | 1] = { data: offset };
      } else if (isNode(child)) {
        node = child;
      } else if (child === null) {
        const next: TreeNode = { children: [null, null] };
        node.children[bit as 0 | 1] = next;
        node = next;
      } else {
        throw new Error(`network ${network} lies inside another`);
      }
    }
  }
  // Node numbers in breadth-first order; the root is node 0.
  const nodes: TreeNode[] = [root];
  for (let i = 0; i < nodes.length; i++)
    for (const c of (nodes[i] as TreeNode).children) if (isNode(c)) nodes.push(c);
  const number = new Map(nodes.map((n, i) => [n, i]));
  const nodeCount = nodes.length;
  const record = (c: Child): number => {
    if (c === null) return nodeCount;
    if (isNode(c)) return number.get(c) as number;
    return nodeCount + 16 + c.data;
  };
  const tree: number[] = [];
  for (const n of nodes)
    for (const c of n.children) {
      const value = record(c);
      if (value >= 2 ** 24) throw new Error('too large for 24-bit records');
      tree.push(value >> 16, (value >> 8) & 0xff, value & 0xff);
    }
  const metadata = encodeValue({
    node_count: uint32(nodeCount),
    record_size: uint16(24),
    ip_version: uint16(options.ipVersion),
    database_type: options.databaseType,
    languages: options.languages ?? ['en'],
    binary_format_major_version: uint16(2),
    binary_format_minor_version: uint16(0),
    build_epoch: uint64(options.buildEpoch ?? Math.floor(Date.now() / 1000)),
    description: options.description ?? {
      en: 'Test database written by apps/server/test/support/mmdb-writer.ts',
    },
  });
  return Buffer.from([
    ...tree,
    ...new Array<number>(16).fill(0),
    ...data,
    ...Buffer.from('\xAB\xCD\xEFMaxMind.com', 'latin1'),
    ...metadata,
  ]);
}

/** A GeoLite2-Country-shaped record for an ISO code: `country` (what the app reads) and `continent`. */
export function countryRecord(isoCode: string, name: string, continent = 'EU'): MmdbValue {
  return {
    continent: { code: continent, names: { en: continent === 'EU' ? 'Europe' : continent } },
    country: {
      geoname_id: uint32(1000 + isoCode.charCodeAt(0) * 26 + isoCode.charCodeAt(1)),
      iso_code: isoCode,
      names: { en: name },
    },
    registered_country: { iso_code: isoCode, names: { en: name } },
  };
}

/**
 * Writes a GeoLite2-Country-like IPv6 database (IPv4 under `::/96`) to `file`: 198.51.100.0/24 in Austria,
 * 203.0.113.0/24 in Germany, 192.0.2.0/24 in France and 2001:db8::/32 in Switzerland (documentation ranges).
 */
export function writeTestCountryDb(file: string): void {
  writeFileSync(
    file,
    buildMmdb({
      ipVersion: 6,
      databaseType: 'GeoLite2-Country',
      networks: [
        { network: '198.51.100.0/24', data: countryRecord('AT', 'Austria') },
        { network: '203.0.113.0/24', data: countryRecord('DE', 'Germany') },
        { network: '192.0.2.0/24', data: countryRecord('FR', 'France') },
        { network: '2001:db8::/32', data: countryRecord('CH', 'Switzerland') },
      ],
    }),
  );
}
