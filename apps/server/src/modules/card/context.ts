import { CARD_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { type CardIssuer, CardIssuerError } from '../../adapters/card-issuer/port.ts';
import type { WebhookCredentials } from '../../adapters/card-issuer/signing.ts';
import type { MailPort } from '../../adapters/mail/port.ts';
import type { Clock } from '../../clock.ts';
import type { CardConfig } from '../../config-sections.ts';
import type { Core } from '../../core/index.ts';
import { AppError } from '../../http/errors.ts';
import { encrypt, hashCode, type ServerKeys } from '../identity/crypto.ts';

/** The card program's fees and limits, in USDT (decimal strings, from the configuration). */
export type CardFees = CardConfig['fees'];

/** What every card use case needs. */
export interface CardContext {
  db: pg.Pool;
  core: Core;
  keys: ServerKeys;
  issuer: CardIssuer;
  mail: MailPort;
  /** The app's clock (clock.ts): authenticator codes are checked against it. */
  clock: Clock;
  fees: CardFees;
  /** The credentials the issuer's webhooks must carry. */
  webhook: WebhookCredentials;
  log: { warn(obj: unknown, msg?: string): void };
  /** Serialises one user's card changes in this process (the database guards across processes). */
  mutex: KeyedMutex;
}

/** The currency cards are paid and loaded in. */
export const CARD_CURRENCY = 'usdt';

/**
 * Runs an issuer call; a timeout becomes 504 `account.card.issuer_timeout`, any other failure 502
 * `account.card.issuer_unavailable`. The message logged names the call, never a card number.
 */
export async function viaIssuer<T>(ctx: CardContext, work: (issuer: CardIssuer) => Promise<T>): Promise<T> {
  try {
    return await work(ctx.issuer);
  } catch (err) {
    if (err instanceof CardIssuerError) {
      ctx.log.warn({ status: err.status, err: err.message }, 'card issuer call failed');
      if (err.status === 504) throw new AppError(504, [CARD_ERRORS.issuerTimeout]);
      throw new AppError(502, [CARD_ERRORS.issuerUnavailable]);
    }
    throw err;
  }
}

/** Keyed hash of a full card number, to find a card by the number typed without decrypting every card. */
export function panHash(keys: ServerKeys, pan: string): string {
  return hashCode(keys, 'card-pan', pan);
}

/** Keyed hash of a card holder's document number (uppercase): finds the holder that has it. */
export function idNumberHash(keys: ServerKeys, idNo: string): string {
  return hashCode(keys, 'card-holder-id-no', idNo);
}

/** A card holder's document number sealed with the server key, with its keyed hash. */
export function sealIdNumber(keys: ServerKeys, idNo: string): { id_no_sealed: string; id_no_hash: string } {
  return { id_no_sealed: encrypt(keys, idNo), id_no_hash: idNumberHash(keys, idNo) };
}

/** The day of `clock` in UTC, `YYYY-MM-DD`. */
export function utcToday(clock: Clock): string {
  return new Date(clock.now()).toISOString().slice(0, 10);
}

/** Runs tasks one at a time per key (in this process), without holding any database connection while waiting. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.catch(() => {}).then(task);
    const tail = result.catch(() => {});
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
