import { toUnits } from '@exchange/shared';
import { parseJsonKeeping } from '../json-numbers.ts';

/**
 * A Bitcoin Core JSON-RPC client (JSON-RPC 1.0 requests, as bitcoin-cli sends them, answered by every Core
 * version): HTTP POST with Basic authentication taken from the URL's user and password. Numbers with a fraction
 * are kept as their text ({@link RpcDecimal}) so BTC amounts convert to satoshis exactly.
 */

/** The node answered with a JSON-RPC error: it read the request and refused it. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
  ) {
    super(`${method}: node error ${code}: ${rpcMessage}`);
    this.name = 'RpcError';
  }
}

/** Anything else: no answer (timeout, connection dropped), or not a JSON-RPC answer (an HTTP error of a proxy). */
export class RpcTransportError extends Error {
  constructor(method: string, cause: unknown) {
    super(`${method}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'RpcTransportError';
  }
}

/** A JSON number with a fraction or exponent, as the node wrote it. */
export class RpcDecimal {
  constructor(readonly text: string) {}
}

/** Core's error codes the adapter acts on (src/rpc/protocol.h). */
export const RPC_INVALID_ADDRESS_OR_KEY = -5;
export const RPC_INVALID_PARAMETER = -8;
export const RPC_VERIFY_ALREADY_IN_CHAIN = -27;

export interface BitcoinRpc {
  call(method: string, params?: unknown[]): Promise<unknown>;
}

/** A client for `url` (`http://user:password@host:port/`); each call may take `timeoutMs`. */
export function createBitcoinRpc(url: string, timeoutMs: number): BitcoinRpc {
  const parsed = new URL(url);
  // fetch refuses URLs with credentials: they move into the Authorization header.
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  const endpoint = parsed.toString();
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  let nextId = 0;

  return {
    async call(method, params = []) {
      const id = ++nextId;
      let status: number;
      let text: string;
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '1.0', id, method, params }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        throw new RpcTransportError(method, error);
      }
      let body: unknown;
      try {
        body = parseJson(text);
      } catch {
        throw new RpcTransportError(method, new Error(`HTTP ${status}: not a JSON-RPC answer`));
      }
      if (!body || typeof body !== 'object' || !('result' in body || 'error' in body)) {
        throw new RpcTransportError(method, new Error(`HTTP ${status}: not a JSON-RPC answer`));
      }
      const { result, error } = body as { result?: unknown; error?: unknown };
      if (error && typeof error === 'object') {
        const { code, message } = error as { code?: unknown; message?: unknown };
        if (typeof code === 'number') throw new RpcError(method, code, String(message ?? ''));
      }
      if (status !== 200) throw new RpcTransportError(method, new Error(`HTTP ${status}`));
      return result ?? null;
    },
  };
}

/** JSON.parse with every number that has a fraction or exponent kept as an {@link RpcDecimal}. */
export function parseJson(text: string): unknown {
  return parseJsonKeeping(text, (literal) => (/[.eE]/.test(literal) ? new RpcDecimal(literal) : undefined));
}

/** A BTC amount of the node's JSON in satoshis, exactly (refuses anything finer than a satoshi). */
export function btcToSats(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value) * 100_000_000n;
  if (!(value instanceof RpcDecimal)) throw new Error(`not a BTC amount: ${String(value)}`);
  return toUnits(plainDecimal(value.text), 8);
}

/** `1.5e-5` → `0.000015`: a JSON number's text without exponent. */
function plainDecimal(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) throw new Error(`not a number: ${text}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : digits.padEnd(point, '0');
  const at = Math.max(point, 1);
  const intPart = padded.slice(0, at).replace(/^0+(?=\d)/, '');
  const fracPart = padded.slice(at);
  return `${sign}${intPart}${fracPart ? `.${fracPart}` : ''}`;
}
