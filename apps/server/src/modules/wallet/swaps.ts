import { randomBytes } from 'node:crypto';
import {
  type AmountQuote,
  formatUnits,
  parseUnits,
  type SwapItem,
  toUnits,
  WALLET_ERRORS,
} from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import { invalid } from '../../http/errors.ts';
import { hashCode, type ServerKeys, safeEqual, sha256 } from '../identity/crypto.ts';
import { swapEntity } from './history.ts';
import { insertSwap, swapByQuoteHash, swapFeeText } from './swaps-repository.ts';

/** Valuation prices (`currentSwapPrice`) are units of `to` per whole `from`, times 10^8. */
const PRICE_SCALE = 100_000_000n;
/** Decimals of the rate shown in a quote and kept in the history (the `swaps.price` column's scale). */
const RATE_DECIMALS = 18;
/** A quote is good for this long. */
export const QUOTE_TTL_MS = 15_000;
/** A quote is refused when the price has since moved against the user by more than this (parts per million). */
export const PRICE_TOLERANCE_PPM = 5_000n;

export interface SwapDeps {
  db: pg.Pool;
  core: Core;
  keys: ServerKeys;
  now?: () => number;
}

interface QuoteTerms {
  user: string;
  from: string;
  to: string;
  amount: string;
  /** The exact rate, `price / scale`. */
  price: string;
  /** Absent in quotes signed before exact rates: 10^8. */
  scale?: string;
  expires: number;
  /** Random, so that two quotes asked for at the same moment are two quotes, each executable once. */
  nonce: string;
}

/** An exact rate: `num / den` units of `to` per whole `from`. */
export interface SwapRate {
  num: bigint;
  den: bigint;
}

/**
 * The current rate of `from` in `to`, exactly, from the book of the market that trades the pair: the best bid
 * when selling the base, one over the best ask when buying it; the last trade price when that side is empty.
 * Kept as the book's price ticks over the market's price scale (or its inverse), never rounded.
 */
export function currentSwapRate(core: Core, from: string, to: string): SwapRate | null {
  for (const m of core.markets.values()) {
    const sellsBase = m.base === from && m.quote === to;
    const buysBase = m.base === to && m.quote === from;
    if (!sellsBase && !buysBase) continue;
    const depth = core.sequencer.state.depth(m.id, 1);
    const ticks =
      (sellsBase ? depth.bids[0]?.[0] : depth.asks[0]?.[0]) ?? core.sequencer.state.lastPrice(m.id);
    if (!ticks || ticks <= 0n) return null;
    const scale = 10n ** BigInt(m.pricePrecision);
    return sellsBase ? { num: ticks, den: scale } : { num: scale, den: ticks };
  }
  return null;
}

/** The current price of `from` in `to` ×10^8, rounded down (for valuation, not for swaps). */
export function currentSwapPrice(core: Core, from: string, to: string): bigint | null {
  const rate = currentSwapRate(core, from, to);
  return rate && (rate.num * PRICE_SCALE) / rate.den;
}

async function feePpm(db: pg.Pool, currency: string): Promise<bigint> {
  const fee = await swapFeeText(db, currency);
  return fee !== undefined ? toUnits(fee, 6) : 0n;
}

/**
 * Gross, fee and net of swapping `amount` units at the exact `rate`, exactly as the engine computes them: one
 * rounding, down, at the end.
 */
function outcome(core: Core, from: string, to: string, amount: bigint, rate: SwapRate, ppm: bigint) {
  const fromPrec = core.units.precision(from);
  const toPrec = core.units.precision(to);
  const gross = (amount * rate.num * 10n ** BigInt(toPrec)) / (10n ** BigInt(fromPrec) * rate.den);
  const fee = (gross * ppm + 999_999n) / 1_000_000n;
  return { gross, fee, net: gross - fee };
}

/** The rate as a decimal, rounded down to 18 decimals (display only: amounts use the exact rate). */
function rateText(rate: SwapRate): string {
  return formatUnits((rate.num * 10n ** BigInt(RATE_DECIMALS)) / rate.den, RATE_DECIMALS);
}

function parseAmount(core: Core, currency: string, text: string): bigint {
  const parsed = parseUnits(text, core.units.precision(currency));
  if (!parsed.ok || parsed.units <= 0n) throw invalid(WALLET_ERRORS.swapAmountInvalid);
  return parsed.units;
}

function checkPair(core: Core, from: string, to: string): void {
  if (from === to || !core.units.precisions.has(from) || !core.units.precisions.has(to))
    throw invalid(WALLET_ERRORS.swapPairInvalid);
}

function sign(keys: ServerKeys, terms: QuoteTerms): string {
  const body = Buffer.from(JSON.stringify(terms)).toString('base64url');
  return `${body}.${hashCode(keys, 'swap-quote', body)}`;
}

function verify(keys: ServerKeys, quoteId: string): QuoteTerms | null {
  const [body, mac] = quoteId.split('.');
  if (!body || !mac || !safeEqual(mac, hashCode(keys, 'swap-quote', body))) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as QuoteTerms;
  } catch {
    return null;
  }
}

/** `GET /account/amount_quote`: a signed quote the user can execute within 15 s. */
export async function quoteSwap(
  deps: SwapDeps,
  userId: string,
  q: { from_currency: string; to_currency: string; amount: string },
): Promise<AmountQuote> {
  const { core } = deps;
  checkPair(core, q.from_currency, q.to_currency);
  const amount = parseAmount(core, q.from_currency, q.amount);
  const rate = currentSwapRate(core, q.from_currency, q.to_currency);
  if (rate === null) throw invalid(WALLET_ERRORS.swapNoPrice);
  const { fee, net } = outcome(
    core,
    q.from_currency,
    q.to_currency,
    amount,
    rate,
    await feePpm(deps.db, q.from_currency),
  );
  if (net <= 0n) throw invalid(WALLET_ERRORS.swapAmountInvalid);
  const expires = (deps.now ?? Date.now)() + QUOTE_TTL_MS;
  const toPrec = core.units.precision(q.to_currency);
  const terms: QuoteTerms = {
    user: userId,
    from: q.from_currency,
    to: q.to_currency,
    amount: formatUnits(amount, core.units.precision(q.from_currency)),
    price: rate.num.toString(),
    scale: rate.den.toString(),
    expires,
    nonce: randomBytes(12).toString('base64url'),
  };
  return {
    quote_id: sign(deps.keys, terms),
    from_currency: q.from_currency,
    to_currency: q.to_currency,
    amount: terms.amount,
    price: rateText(rate),
    fee: formatUnits(fee, toPrec),
    total: formatUnits(net, toPrec),
    expires_at: new Date(expires).toISOString(),
  };
}

/**
 * Executes a quote at its price through the core, against the swap liquidity account. Refused when the quote is
 * not this user's, has expired, or the price has moved against the user beyond the tolerance. A quote takes
 * effect at most once: the core applies its command once (by the quote's hash), and of all the calls that
 * executed it only the one that records the swap answers it; every other, concurrent or later, is refused with
 * `account.swap.quote_used`. An engine refusal (balance, liquidity) is kept in the history as `rejected`.
 */
export async function executeSwap(
  deps: SwapDeps,
  userId: string,
  input: { from_currency: string; to_currency: string; amount: string; quote_id: string },
): Promise<SwapItem> {
  const { core, db } = deps;
  const terms = verify(deps.keys, input.quote_id);
  if (
    !terms ||
    terms.user !== userId ||
    terms.from !== input.from_currency ||
    terms.to !== input.to_currency ||
    parseAmount(core, terms.from, terms.amount) !== parseAmount(core, input.from_currency, input.amount) ||
    terms.expires < (deps.now ?? Date.now)()
  )
    throw invalid(WALLET_ERRORS.swapQuoteExpired);
  const quoted: SwapRate = { num: BigInt(terms.price), den: BigInt(terms.scale ?? PRICE_SCALE) };
  const now = currentSwapRate(core, terms.from, terms.to);
  // now < quoted · (1 − tolerance), compared as fractions.
  if (
    now === null ||
    now.num * quoted.den * 1_000_000n < quoted.num * now.den * (1_000_000n - PRICE_TOLERANCE_PPM)
  )
    throw invalid(WALLET_ERRORS.swapQuoteExpired);
  const amount = parseAmount(core, terms.from, terms.amount);
  const ppm = await feePpm(db, terms.from);
  const quoteHash = sha256(input.quote_id);
  const result = await core.sequencer.submit(
    {
      type: 'Swap',
      user: Number(userId),
      from: terms.from,
      to: terms.to,
      amount,
      mode: { price: quoted.num, scale: quoted.den },
      feePpm: ppm,
    },
    `swap:${quoteHash}`,
  );
  const { fee, net } = outcome(core, terms.from, terms.to, amount, quoted, ppm);
  const toPrec = core.units.precision(terms.to);
  const recorded = await insertSwap(db, {
    userId,
    from: terms.from,
    to: terms.to,
    amount: terms.amount,
    price: rateText(quoted),
    total: result.ok ? formatUnits(net, toPrec) : '0',
    fee: result.ok ? formatUnits(fee, toPrec) : '0',
    state: result.ok ? 'completed' : 'rejected',
    reason: result.ok ? null : result.code,
    quoteHash,
  });
  if (!recorded) throw invalid(WALLET_ERRORS.swapQuoteUsed);
  if (!result.ok) throw invalid(result.code ?? WALLET_ERRORS.swapNoPrice);
  const swap = await swapByQuoteHash(db, quoteHash);
  if (!swap) throw new Error(`no swap recorded for the quote ${quoteHash}`);
  return swapEntity(swap);
}
