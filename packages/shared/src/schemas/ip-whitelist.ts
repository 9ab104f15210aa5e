import { z } from 'zod';
import { IP_WHITELIST } from '../constants.ts';
import { ERRORS } from '../errors.ts';
import { textField } from '../validation.ts';

/**
 * One whitelist entry as typed: an address or CIDR range. Only its length is checked here (the web app cannot
 * use node:net); the server reads it and refuses what is no address with `resource.ip_whitelist.invalid_ip`.
 */
export const ipEntryField = textField(ERRORS.ipWhitelistInvalidIp, [
  [(v) => v.trim().length > 0 && v.length <= IP_WHITELIST.entryLength, ERRORS.ipWhitelistInvalidIp],
]);

/**
 * The allowed IPs of an API key (`allowed_ips` on create and update): at most 20 entries; an empty list allows
 * every address.
 */
export const allowedIpsField = z
  .array(ipEntryField, { error: ERRORS.ipWhitelistInvalidIp })
  .max(IP_WHITELIST.maxEntries, ERRORS.ipWhitelistTooMany);
