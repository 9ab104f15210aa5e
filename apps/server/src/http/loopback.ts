import { ERRORS } from '@exchange/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** IPv4 127.0.0.0/8 and IPv6 ::1, also as an IPv4-mapped IPv6 address. */
const LOOPBACK = /^(?:127\.|::ffff:127\.|::1$)/;

/**
 * True for a request made on this machine: the connection comes from a loopback address and no proxy forwarded
 * it. The socket's address is used, never `request.ip`, because `TRUST_PROXY` would let a forwarded header
 * choose it; and a reverse proxy on this machine connects from loopback too, so any forwarding header means the
 * request came from elsewhere.
 */
export function isLoopbackRequest(request: FastifyRequest): boolean {
  const headers = request.headers;
  if (headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined) return false;
  if (headers['x-real-ip'] !== undefined) return false;
  return LOOPBACK.test(request.raw.socket.remoteAddress ?? '');
}

/** True for a `HOST` that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || LOOPBACK.test(host);
}

/**
 * The loud warning printed at start when developer tools are on while `HOST` lets other machines connect, or
 * undefined when there is nothing to warn about.
 */
export function devToolsExposureWarning(config: { devTools: boolean; host: string }): string | undefined {
  if (!config.devTools || isLoopbackHost(config.host)) return undefined;
  const line = '!'.repeat(100);
  return [
    line,
    `!! WARNING: DEV_TOOLS is on while HOST=${config.host} lets other machines connect.`,
    '!! The mail outbox (every login code and reset link), the faucet and mining answer only requests made on',
    '!! this machine, but demo users and simulated chains are still on. Set NODE_ENV=production (or',
    '!! DEV_TOOLS=false) for any server that real people use.',
    line,
  ].join('\n');
}

/**
 * `onRequest` hook of the developer tools (mail outbox, faucet, mining): answered only on this machine, so a
 * development server reachable from a network does not hand out every login code and reset link.
 */
export async function loopbackOnly(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!isLoopbackRequest(request)) await reply.status(403).send({ errors: [ERRORS.devToolsLoopbackOnly] });
}
