import { randomInt } from 'node:crypto';
import { ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { type Clock, dateOf } from '../../clock.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import { hashCode, type ServerKeys, safeEqual } from './crypto.ts';

/** What a one-time code authorises. */
export type CodePurpose =
  | 'register'
  | 'login'
  | 'password_reset'
  | 'phone_change'
  | 'email_confirm'
  /** `POST /resource/generate_code`: confirms a sensitive action of a signed-in user. */
  | 'sensitive_action';
/** Where a code is sent. */
export type CodeChannel = 'email' | 'sms';

/** Lifetime of a code, minimum gap between two sends, and wrong tries allowed per code. */
export const CODE_POLICY = { ttlMinutes: 10, resendSeconds: 60, maxAttempts: 5 } as const;

/** One code to check: purpose, channel and destination identify the live code. */
export interface CodeTarget {
  purpose: CodePurpose;
  channel: CodeChannel;
  destination: string;
}

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
    const live = await tx.query(
      `select id, created_at > $5::timestamptz - make_interval(secs => $4) as recent from one_time_codes
       where purpose = $1 and channel = $2 and destination = lower($3) and consumed_at is null for update`,
      [target.purpose, target.channel, target.destination, CODE_POLICY.resendSeconds, now],
    );
    if (live.rows[0]?.recent) {
      throw new AppError(429, [target.channel === 'sms' ? ERRORS.phoneResendLimit : ERRORS.emailResendLimit]);
    }
    if (live.rows[0])
      await tx.query('update one_time_codes set consumed_at = $2 where id = $1', [live.rows[0].id, now]);
    await tx.query(
      `insert into one_time_codes (user_id, purpose, channel, destination, code_hash, created_at, expires_at)
       values ($1, $2, $3, lower($4), $5, $7, $7::timestamptz + make_interval(mins => $6))`,
      [
        target.userId,
        target.purpose,
        target.channel,
        target.destination,
        hashCode(keys, context(target), code),
        CODE_POLICY.ttlMinutes,
        now,
      ],
    );
  });
  return code;
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
      const row = (
        await tx.query(
          `select id, code_hash, attempts, expires_at > $4 as fresh from one_time_codes
           where purpose = $1 and channel = $2 and destination = lower($3) and consumed_at is null for update`,
          [attempt.purpose, attempt.channel, attempt.destination, now],
        )
      ).rows[0];
      if (!row?.fresh || row.attempts >= CODE_POLICY.maxAttempts) {
        results.push(false);
        continue;
      }
      const match = safeEqual(row.code_hash, hashCode(keys, context(attempt), attempt.code));
      if (!match) {
        await tx.query(
          `update one_time_codes set attempts = attempts + 1,
             consumed_at = case when attempts + 1 >= $2 then $3::timestamptz else null end where id = $1`,
          [row.id, CODE_POLICY.maxAttempts, now],
        );
      } else ids.push(row.id);
      results.push(match);
    }
    if (results.every(Boolean)) {
      await tx.query('update one_time_codes set consumed_at = $2 where id = any($1::bigint[])', [ids, now]);
    }
    return results;
  });
}
