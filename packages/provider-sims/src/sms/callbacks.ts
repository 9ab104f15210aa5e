import { type ChangeFeed, twilioSignature } from '@exchange/server/provider-kit';
import type pg from 'pg';
import { DueWork } from '../due-work.ts';

/** How often a status callback is posted in all before the simulator gives it up (Twilio, too, gives up). */
export const CALLBACK_ATTEMPTS = 5;

export interface StatusCallbackOptions {
  db: pg.Pool;
  /** The account's auth token, which Twilio signs its requests with. */
  authToken: () => string;
  /** Announces callbacks queued by any process (`o:smssim_callbacks`); without it, due ones are looked for every `pollMs`. */
  feed?: ChangeFeed;
  /** How often due callbacks are looked for when no feed is heard (default 1 s: one indexed query). */
  pollMs?: number;
  /** How long the receiver may take to answer. */
  timeoutMs?: number;
  /** Makes the request (fetch by default). */
  fetch?: typeof fetch;
  log?: { warn(obj: unknown, msg?: string): void };
}

/**
 * The SMS simulator's status callbacks, as Twilio sends them: each status change of a message sent with a
 * StatusCallback URL (queued at acceptance in `smssim_callbacks`, each due when the message reaches that status) is
 * POSTed form-encoded to that URL, signed with `X-Twilio-Signature`. One that is not answered 2xx is retried with
 * back-off (2, 4, 8, 16 s), {@link CALLBACK_ATTEMPTS} times in all. Callbacks go out as they fall due, each
 * independently: a retried one may arrive after a later status, as Twilio's may. Between passes the worker sleeps
 * until the next one is due (or, without the change feed, looks every `pollMs` with one indexed query).
 */
export class StatusCallbacks extends DueWork {
  constructor(private readonly options: StatusCallbackOptions) {
    const { db } = options;
    super({
      db,
      name: 'sms simulator: status callbacks',
      nextDueMs: async () => {
        const row = (
          await db.query<{ ms: string | null }>(
            `select extract(epoch from (min(next_attempt_at) - now())) * 1000 as ms
               from smssim_callbacks where delivered_at is null and attempts < $1`,
            [CALLBACK_ATTEMPTS],
          )
        ).rows[0];
        return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
      },
      feed: options.feed,
      announcement: 'o:smssim_callbacks',
      pollMs: options.pollMs,
      log: options.log,
    });
  }

  protected async pass(): Promise<void> {
    const { db } = this.options;
    for (let i = 0; i < 100 && !this.stopping; i++) {
      const claimed = (
        await db.query<{ id: string; url: string; payload: string }>(
          `update smssim_callbacks set attempts = attempts + 1,
             next_attempt_at = now() + make_interval(secs => power(2, attempts + 1)::int)
           where id = (select id from smssim_callbacks
                        where delivered_at is null and attempts < $1 and next_attempt_at <= now()
                        order by next_attempt_at, id limit 1 for update skip locked)
           returning id, url, payload`,
          [CALLBACK_ATTEMPTS],
        )
      ).rows[0];
      if (!claimed) return;
      const error = await this.post(claimed.url, claimed.payload);
      await db.query(
        `update smssim_callbacks set delivered_at = case when $2::text is null then now() end, last_error = $2
          where id = $1`,
        [claimed.id, error],
      );
    }
  }

  /** Posts one callback; null when answered 2xx, else what went wrong. */
  private async post(url: string, payload: string): Promise<string | null> {
    const signature = twilioSignature(this.options.authToken(), url, new URLSearchParams(payload));
    try {
      const response = await (this.options.fetch ?? fetch)(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
          'x-twilio-signature': signature,
          'user-agent': 'TwilioProxy/1.1',
        },
        body: payload,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (err) {
      return (err as Error).message;
    }
  }
}
