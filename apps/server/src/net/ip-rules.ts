import { BlockList, isIP } from 'node:net';

/** An address as 4 (IPv4) or 16 (IPv6) bytes. */
type Bytes = number[];

/**
 * The 16 bytes of an IPv6 address that `isIP` accepted. The WHATWG URL parser writes it in its one canonical
 * form first (hex, lower case, an embedded dotted quad turned into two groups, `::` for the longest zero run),
 * so only that form needs reading here.
 */
function ipv6Bytes(address: string): Bytes {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

/** `::ffff:0:0/96`: an IPv4 address written as IPv6 (what a dual-stack socket reports for an IPv4 peer). */
function isV4Mapped(bytes: Bytes): boolean {
  return (
    bytes.length === 16 &&
    bytes.slice(0, 10).every((b) => b === 0) &&
    bytes[10] === 0xff &&
    bytes[11] === 0xff
  );
}

function format(bytes: Bytes): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  // The URL parser compresses the longest zero run, so every spelling of one address gives one text.
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/** The address with the bits past `prefix` cleared (the network of a CIDR range). */
function network(bytes: Bytes, prefix: number): Bytes {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

/**
 * An address's bytes in the family it is matched in: an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`,
 * `::ffff:102:304`, `0:0:0:0:0:ffff:1.2.3.4`...) is the IPv4 address it carries, so a rule and a client address
 * meet in one family whatever spelling either came in. Zone ids (`fe80::1%eth0`) name no address a remote client
 * can have: refused. Null when the text is no address.
 */
function parseAddress(text: string): Bytes | null {
  if (text.includes('%')) return null;
  const version = isIP(text);
  if (version === 4) return text.split('.').map(Number);
  if (version !== 6) return null;
  const bytes = ipv6Bytes(text);
  return isV4Mapped(bytes) ? bytes.slice(12) : bytes;
}

/** A whitelist entry in its one written form: `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32`. */
export interface IpRule {
  /** The canonical text: the network address, and `/prefix` unless the rule is one address. */
  text: string;
  family: 'ipv4' | 'ipv6';
  address: string;
  prefix: number;
}

/**
 * Reads one entry a user typed: an IPv4 or IPv6 address, or a CIDR range (`address/prefix`), and gives its
 * canonical form. A range's host bits are cleared (`203.0.113.9/24` is `203.0.113.0/24`), an IPv4-mapped IPv6
 * entry becomes IPv4 (`::ffff:203.0.113.0/120` is `203.0.113.0/24`), and a full-length prefix is one address,
 * so two spellings of the same range are the same entry. Null for anything else (leading zeros, hex or short
 * IPv4 forms, zone ids, a prefix out of range), parsed by node:net and the URL parser, never by pattern.
 */
export function parseIpRule(input: string): IpRule | null {
  const text = input.trim();
  if (text === '' || text.length > 64) return null;
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const prefixText = slash === -1 ? undefined : text.slice(slash + 1);
  const written = isIP(addressText);
  const bytes = parseAddress(addressText);
  if (!bytes) return null;
  const max = written === 4 ? 32 : 128;
  let prefix = max;
  if (prefixText !== undefined) {
    // Digits only: Number('') is 0 and Number('0x10') is 16, neither is a prefix length a user meant.
    if (!/^\d{1,3}$/.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > max) return null;
  }
  if (written === 6 && bytes.length === 4) {
    // A mapped range shorter than /96 reaches beyond IPv4's space: it is no IPv4 range and is refused.
    if (prefix < 96) return null;
    prefix -= 96;
  }
  const family = bytes.length === 4 ? 'ipv4' : 'ipv6';
  const full = family === 'ipv4' ? 32 : 128;
  const address = format(network(bytes, prefix));
  return { text: prefix === full ? address : `${address}/${prefix}`, family, address, prefix };
}

/** A client address in its canonical form (IPv4-mapped IPv6 as IPv4), or null for no address. */
export function canonicalClientIp(ip: string): string | null {
  const bytes = parseAddress(ip);
  return bytes ? format(bytes) : null;
}

/**
 * A set of whitelist entries to match client addresses against (node:net's BlockList, which matches CIDR ranges
 * by bytes). An empty set allows every address: no list means no restriction.
 */
export class IpRuleSet {
  private readonly list = new BlockList();
  readonly size: number;

  constructor(rules: readonly string[]) {
    let size = 0;
    for (const text of rules) {
      const rule = parseIpRule(text);
      if (!rule) continue;
      this.list.addSubnet(rule.address, rule.prefix, rule.family);
      size += 1;
    }
    // A stored entry that no longer parses must not turn a list into "no restriction": it counts, matching nothing.
    this.size = Math.max(size, rules.length);
  }

  /** True when the set is empty or `ip` (any spelling, IPv4-mapped included) falls in one of its entries. */
  allows(ip: string): boolean {
    if (this.size === 0) return true;
    const bytes = parseAddress(ip);
    if (!bytes) return false;
    return this.list.check(format(bytes), bytes.length === 4 ? 'ipv4' : 'ipv6');
  }
}
