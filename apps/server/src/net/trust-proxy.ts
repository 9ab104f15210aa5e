import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Which proxies in front of the app may tell it the client's address (Fastify's `trustProxy`): none (`false`),
 * the nearest N hops, or the proxies' own addresses and CIDRs. Never "every hop": the left-most
 * `X-Forwarded-For` entry is whatever the client wrote, since proxies append to the header.
 */
export type TrustProxy = false | number | string[];

const OFF = new Set(['false', '0', 'no', 'off']);
const EVERY_HOP = new Set(['true', 'yes', 'on']);
/** proxy-addr's named ranges: 127.0.0.0/8 and ::1, link-local, and private (unique local) addresses. */
const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4 or IPv6 address, optionally with a prefix length, or one of proxy-addr's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`: `false` (the default), a hop count 1-10 (`1`: one proxy such as nginx in front), or a comma list
 * of the proxies' addresses and CIDRs. `true` is refused: it used to trust every hop.
 */
export const trustProxySchema = z
  .string()
  .transform((raw, ctx): TrustProxy => {
    const value = raw.trim().toLowerCase();
    if (OFF.has(value)) return false;
    if (EVERY_HOP.has(value)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'true would trust every hop, so a client could pick its own address with X-Forwarded-For; set the number of proxies in front of the app (e.g. 1) or their addresses (e.g. 10.0.0.5,10.1.0.0/16)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops >= 1 && hops <= 10) return hops;
    } else {
      const entries = value.split(',').map((e) => e.trim());
      if (entries.every((e) => e !== '' && isProxyAddress(e))) return entries;
    }
    ctx.addIssue({
      code: 'custom',
      message: 'must be false, a number of proxies from 1 to 10, or a comma list of their addresses or CIDRs',
    });
    return z.NEVER;
  })
  .default(false);

/**
 * The setting as Fastify's `trustProxy` option. A hop count becomes a function trusting the socket's peer and the
 * next `hops - 1` `X-Forwarded-For` entries from the right (Fastify itself reads a bare number as "trust none").
 * A hop count trusts whoever connects, so it is only right when nothing but the proxies can reach the app.
 */
export function fastifyTrustProxy(
  setting: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}
