import path from 'node:path';
import { z } from 'zod';

/** The signer's own settings (only the signer reads them; the other roles know `SIGNER_URL` and `SIGNER_TOKEN`). */
export interface SignerConfig {
  /** The sealed seed (`signer init` writes it). */
  seedFile: string;
  /** Opens the seed file. Outside production a key is generated beside the seed on first start. */
  seedKey: string | undefined;
  /** Callers prove themselves with an HMAC under this token. */
  token: string;
  host: string;
  port: number;
  /** The watch-only cold address of each network (`blockchain_key` → address): the only cold destination. */
  coldAddresses: Map<string, string>;
  /** Most a network may pay out in withdrawals per UTC day, per currency (currency → decimal string). */
  dailyCaps: Map<string, string>;
  /** Highest network fee one transaction may carry, per native currency (decimal string). */
  maxFees: Map<string, string>;
  /** Most native coin one gas top-up may carry, per native currency (decimal string). */
  maxGas: Map<string, string>;
  /** EIP-155 chain ids the signer signs for, per EVM network; unset: whatever the request names. */
  evmChainIds: Map<string, bigint>;
  production: boolean;
}

/** Defaults generous enough for the demo and small enough to bound a mistake; an operator sets their own. */
const DEFAULT_DAILY_CAPS = 'btc=10,eth=200,usdt=500000,trx=5000000';
const DEFAULT_MAX_FEES = 'btc=0.005,eth=0.05,trx=150';
const DEFAULT_MAX_GAS = 'eth=0.01,trx=60';

const list = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const out = new Map<string, string>();
    for (const part of (text ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const at = part.indexOf('=');
      if (at <= 0) {
        ctx.addIssue({ code: 'custom', message: `"${part}" is not name=value` });
        return z.NEVER;
      }
      out.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
    }
    return out;
  });

const decimals = /^\d+(\.\d+)?$/;

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATA_DIR: z.string().default('data'),
  SIGNER_SEED_FILE: z.string().optional(),
  SIGNER_KEY: z.string().min(16).optional(),
  SIGNER_TOKEN: z.string().min(32),
  SIGNER_HOST: z.string().default('127.0.0.1'),
  SIGNER_PORT: z.coerce.number().int().min(0).max(65535).default(7010),
  SIGNER_COLD_ADDRESSES: list,
  SIGNER_DAILY_CAPS: list,
  SIGNER_MAX_FEES: list,
  SIGNER_MAX_GAS: list,
  SIGNER_EVM_CHAIN_IDS: list,
});

/** Reads the signer's settings from the environment; throws with every problem named. */
export function loadSignerConfig(env: Record<string, string | undefined> = process.env): SignerConfig {
  const e = schema.parse(env);
  const production = e.NODE_ENV === 'production';
  if (production && !e.SIGNER_KEY)
    throw new Error('SIGNER_KEY is required in production (it opens the seed file)');
  const amounts = (given: Map<string, string>, defaults: string) => {
    const merged = new Map([...(schema.shape.SIGNER_DAILY_CAPS.parse(defaults) ?? new Map()), ...given]);
    for (const [name, value] of merged)
      if (!decimals.test(value)) throw new Error(`signer limit ${name}=${value} is not a decimal amount`);
    return merged;
  };
  const chainIds = new Map<string, bigint>();
  for (const [network, id] of e.SIGNER_EVM_CHAIN_IDS) {
    if (!/^\d+$/.test(id)) throw new Error(`SIGNER_EVM_CHAIN_IDS: ${network}=${id} is not a chain id`);
    chainIds.set(network, BigInt(id));
  }
  return {
    seedFile: path.resolve(e.SIGNER_SEED_FILE ?? path.join(e.DATA_DIR, 'signer', 'seed.json')),
    seedKey: e.SIGNER_KEY,
    token: e.SIGNER_TOKEN,
    host: e.SIGNER_HOST,
    port: e.SIGNER_PORT,
    coldAddresses: e.SIGNER_COLD_ADDRESSES,
    dailyCaps: amounts(e.SIGNER_DAILY_CAPS, DEFAULT_DAILY_CAPS),
    maxFees: amounts(e.SIGNER_MAX_FEES, DEFAULT_MAX_FEES),
    maxGas: amounts(e.SIGNER_MAX_GAS, DEFAULT_MAX_GAS),
    evmChainIds: chainIds,
    production,
  };
}
