import { describe, expect, it } from 'vitest';
import { canonicalClientIp, IpRuleSet, parseIpRule } from '../../src/net/ip-rules.ts';

describe('IP whitelist entries (parseIpRule)', () => {
  it('writes every spelling of one address or range the same way', () => {
    const same = (inputs: string[], text: string) => {
      for (const input of inputs) expect(parseIpRule(input)?.text, input).toBe(text);
    };
    same(
      ['203.0.113.7', ' 203.0.113.7 ', '203.0.113.7/32', '::ffff:203.0.113.7', '::FFFF:CB00:7107'],
      '203.0.113.7',
    );
    same(['0:0:0:0:0:ffff:203.0.113.7', '::ffff:203.0.113.7/128'], '203.0.113.7');
    same(['203.0.113.9/24', '203.0.113.0/24', '::ffff:203.0.113.0/120'], '203.0.113.0/24');
    same(['2001:DB8:0:0:0:0:0:1', '2001:db8::1', '2001:0db8::0001/128'], '2001:db8::1');
    same(['2001:db8:ffff::/32', '2001:DB8::/32'], '2001:db8::/32');
    same(['0.0.0.0/0'], '0.0.0.0/0');
  });

  it('refuses what is no address or range', () => {
    for (const input of [
      '',
      'localhost',
      '1.2.3',
      '01.2.3.4',
      '1.2.3.04',
      '0x7f.0.0.1',
      '256.1.1.1',
      '1.2.3.4/33',
      '1.2.3.4/',
      '1.2.3.4/0x10',
      '1.2.3.4/-1',
      '1.2.3.4/24/1',
      '2001:db8::/129',
      'fe80::1%eth0',
      '[::1]',
      '::ffff:1.2.3.4/95',
    ]) {
      expect(parseIpRule(input), input).toBeNull();
    }
  });
});

describe('matching client addresses (IpRuleSet)', () => {
  it('matches an IPv4 rule against every IPv6 spelling of that address, and only that', () => {
    const set = new IpRuleSet(['198.51.100.0/24']);
    for (const ip of [
      '198.51.100.1',
      '::ffff:198.51.100.1',
      '::ffff:c633:6401',
      '0:0:0:0:0:FFFF:198.51.100.1',
    ])
      expect(set.allows(ip), ip).toBe(true);
    for (const ip of [
      '198.51.101.1',
      '::198.51.100.1',
      '64:ff9b::198.51.100.1',
      '2002:c633:6401::1',
      'junk',
      '',
    ])
      expect(set.allows(ip), ip).toBe(false);
  });

  it('matches IPv6 ranges, and an empty list allows everyone', () => {
    const set = new IpRuleSet(['2001:db8::/32']);
    expect(set.allows('2001:DB8:1::5')).toBe(true);
    expect(set.allows('2001:db9::1')).toBe(false);
    expect(new IpRuleSet([]).allows('192.0.2.1')).toBe(true);
  });

  it('never turns a list with an unreadable stored entry into no restriction', () => {
    const set = new IpRuleSet(['not-an-address']);
    expect(set.size).toBe(1);
    expect(set.allows('192.0.2.1')).toBe(false);
  });

  it('gives client addresses one canonical form', () => {
    expect(canonicalClientIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(canonicalClientIp('2001:DB8::0:1')).toBe('2001:db8::1');
    expect(canonicalClientIp('x')).toBeNull();
  });
});
