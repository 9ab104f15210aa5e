import { toUnits } from '@exchange/shared';

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

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const DECIMAL_MARK = '~rpcdec~';

/** JSON.parse with every number that has a fraction or exponent kept as an {@link RpcDecimal}. */
export function parseJson(text: string): unknown {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const literal = NUMBER.exec(text)?.[0];
      if (!literal) throw new SyntaxError(`bad number at ${i}`);
      out += /[.eE]/.test(literal) ? `"${DECIMAL_MARK}${literal}"` : literal;
      i += literal.length;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(DECIMAL_MARK)
      ? new RpcDecimal(value.slice(DECIMAL_MARK.length))
      : value,
  );
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
