import { randomInt } from 'node:crypto';
import { ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { type Clock, dateOf } from '../../clock.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import {
  type CodeTarget,
  consumeCode,
  consumeCodes,
  countWrongAnswer,
  insertCode,
  lockCodeToCheck,
  lockLiveCode,
  withdrawLiveCode,
} from './codes-repository.ts';
import { hashCode, type ServerKeys, safeEqual } from './crypto.ts';

export type { CodeChannel, CodePurpose, CodeTarget } from './codes-repository.ts';

/** Lifetime of a code, minimum gap between two sends, and wrong tries allowed per code. */
export const CODE_POLICY = { ttlMinutes: 10, resendSeconds: 60, maxAttempts: 5 } as const;

/** What issuing and checking codes needs: the database, the key that hashes codes, and the app's clock. */
export interface CodeDeps {
  db: pg.Pool;
  keys: ServerKeys;
  clock: Clock;
}

const context = (t: CodeTarget) => `${t.purpose}:${t.channel}:${t.destination.toLowerCase()}`;

/**
 * Issues a fresh code of `length` digits from a CSPRNG and stores only its keyed hash. It replaces any live
 * code for the same target. Refused with `identity.session.{email,phone}_resend_limit` (429) within 60 s of the
 * previous send. The resend gap and the lifetime are measured on the app's clock (clock.ts).
 */
export async function issueCode(
  { db, keys, clock }: CodeDeps,
  target: CodeTarget & { userId: string | null; length: number },
): Promise<string> {
  const now = dateOf(clock);
  const code = String(randomInt(0, 10 ** target.length)).padStart(target.length, '0');
  await withTransaction(db, async (tx) => {
    const live = await lockLiveCode(tx, target, CODE_POLICY.resendSeconds, now);
    if (live?.recent) {
      throw new AppError(429, [target.channel === 'sms' ? ERRORS.phoneResendLimit : ERRORS.emailResendLimit]);
    }
    if (live) await consumeCode(tx, live.id, now);
    await insertCode(tx, target, hashCode(keys, context(target), code), CODE_POLICY.ttlMinutes, now);
  });
  return code;
}

/**
 * Withdraws a code just issued whose message could not be sent: it reached nobody, so it is no longer checked, and
 * the resend gap does not hold back the next one. A newer code of the target is left alone.
 */
export async function withdrawCode(
  { db, keys, clock }: CodeDeps,
  target: CodeTarget,
  code: string,
): Promise<void> {
  await withdrawLiveCode(db, target, hashCode(keys, context(target), code), dateOf(clock));
}

/**
 * Checks several codes together (e.g. email and phone at registration). Each wrong answer counts against its
 * code; a code dies after 5 wrong answers or 10 minutes (of the app's clock). The codes are consumed only when all
 * of them match.
 * @returns per target whether its code matched.
 */
export async function checkCodes(
  { db, keys, clock }: CodeDeps,
  attempts: readonly (CodeTarget & { code: string })[],
): Promise<boolean[]> {
  const now = dateOf(clock);
  return withTransaction(db, async (tx) => {
    const results: boolean[] = [];
    const ids: string[] = [];
    for (const attempt of attempts) {
      const row = await lockCodeToCheck(tx, attempt, now);
      if (!row?.fresh || row.attempts >= CODE_POLICY.maxAttempts) {
        results.push(false);
        continue;
      }
      const match = safeEqual(row.code_hash, hashCode(keys, context(attempt), attempt.code));
      if (!match) {
        await countWrongAnswer(tx, row.id, CODE_POLICY.maxAttempts, now);
      } else ids.push(row.id);
      results.push(match);
    }
    if (results.every(Boolean)) {
      await consumeCodes(tx, ids, now);
    }
    return results;
  });
}
