import { parseBtc } from './codec.ts';
import { JsonDecimal } from './json.ts';
import { RPC } from './validate.ts';

/** An error answered to the client as Core's `{code, message}`. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** A method's parameters by position, with named parameters mapped onto their positions (Core accepts both). */
export class Params {
  readonly values: unknown[];

  constructor(
    readonly method: string,
    names: readonly string[],
    required: number,
    raw: unknown,
  ) {
    if (Array.isArray(raw)) {
      this.values = raw;
    } else if (raw && typeof raw === 'object') {
      const named = raw as Record<string, unknown>;
      for (const key of Object.keys(named)) {
        if (!names.includes(key)) throw new RpcError(RPC.INVALID_PARAMETER, `Unknown named parameter ${key}`);
      }
      this.values = names.map((name) => named[name]);
      while (this.values.length > 0 && this.values.at(-1) === undefined) this.values.pop();
    } else {
      this.values = [];
    }
    const given = this.values.filter((v, i) => i < required && v !== undefined && v !== null).length;
    if (this.values.length > names.length || given < required) {
      // Core answers a wrong parameter count with the method's help text and RPC_MISC_ERROR.
      throw new RpcError(
        RPC.MISC_ERROR,
        `${method} ${names.map((n, i) => (i < required ? `"${n}"` : `( "${n}" )`)).join(' ')}`,
      );
    }
  }

  private has(i: number): boolean {
    return this.values[i] !== undefined && this.values[i] !== null;
  }

  string(i: number): string;
  string(i: number, fallback: string | null): string | null;
  string(i: number, fallback?: string | null): string | null {
    if (!this.has(i)) return fallback ?? null;
    const value = this.values[i];
    if (typeof value !== 'string') throw typeError(value, 'string');
    return value;
  }

  int(i: number, fallback?: number): number {
    if (!this.has(i)) {
      if (fallback === undefined) throw typeError(null, 'number');
      return fallback;
    }
    const value = this.values[i];
    if (typeof value !== 'number' || !Number.isInteger(value)) throw typeError(value, 'number');
    return value;
  }

  bool(i: number, fallback: boolean): boolean {
    if (!this.has(i)) return fallback;
    const value = this.values[i];
    if (typeof value !== 'boolean') throw typeError(value, 'bool');
    return value;
  }

  /** A bool or an integer (Core's `verbose`/`verbosity` take both). */
  level(i: number, fallback: number): number {
    if (!this.has(i)) return fallback;
    const value = this.values[i];
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    throw typeError(value, 'number');
  }

  /** An amount in BTC (a JSON number or a decimal string, as Core's AmountFromValue), in satoshis. */
  amount(i: number, fallback?: bigint): bigint {
    if (!this.has(i)) {
      if (fallback === undefined) throw typeError(null, 'number');
      return fallback;
    }
    const value = this.values[i];
    const text =
      value instanceof JsonDecimal
        ? value.text
        : typeof value === 'number' || typeof value === 'string'
          ? String(value)
          : null;
    if (text === null) throw new RpcError(RPC.TYPE_ERROR, 'Amount is not a number or string');
    const sats = parseBtc(text);
    if (sats === null)
      throw new RpcError(RPC.TYPE_ERROR, text.startsWith('-') ? 'Amount out of range' : 'Invalid amount');
    return sats;
  }

  array(i: number): unknown[] {
    const value = this.values[i];
    if (!Array.isArray(value)) throw typeError(value, 'array');
    return value;
  }

  /** A 64-digit hex hash (Core's ParseHashV), e.g. a txid or block hash. */
  hash(i: number, name: string): string {
    const value = this.string(i);
    if (!/^[0-9a-fA-F]*$/.test(value))
      throw new RpcError(RPC.INVALID_PARAMETER, `${name} must be hexadecimal string (not '${value}')`);
    if (value.length !== 64) {
      throw new RpcError(
        RPC.INVALID_PARAMETER,
        `${name} must be of length 64 (not ${value.length}, for '${value}')`,
      );
    }
    return value.toLowerCase();
  }
}

function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof JsonDecimal || typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

function typeError(value: unknown, expected: string): RpcError {
  return new RpcError(
    RPC.TYPE_ERROR,
    `JSON value of type ${typeName(value)} is not of expected type ${expected}`,
  );
}
