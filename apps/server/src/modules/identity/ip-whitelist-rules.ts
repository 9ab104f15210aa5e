import { ERRORS, IP_WHITELIST } from '@exchange/shared';
import { invalid } from '../../http/errors.ts';
import { parseIpRule } from '../../net/ip-rules.ts';

/**
 * The entries of a whitelist as typed, in their canonical form (see `parseIpRule`), refused with 422
 * `resource.ip_whitelist.invalid_ip` (one is no address or range), `.duplicate` (two spellings of one entry)
 * or `.too_many` (over 20).
 */
export function canonicalRules(inputs: readonly string[]): string[] {
  const rules: string[] = [];
  for (const input of inputs) {
    const rule = parseIpRule(input);
    if (!rule) throw invalid(ERRORS.ipWhitelistInvalidIp);
    if (rules.includes(rule.text)) throw invalid(ERRORS.ipWhitelistDuplicate);
    rules.push(rule.text);
  }
  if (rules.length > IP_WHITELIST.maxEntries) throw invalid(ERRORS.ipWhitelistTooMany);
  return rules;
}
