import { setTimeout as sleep } from 'node:timers/promises';
import { fillSecret } from '../mail/port.ts';
import { type SmsMessage, type SmsPort, SmsRejected, SmsUnavailable } from './port.ts';

export { SmsRejected, SmsUnavailable } from './port.ts';

/** Twilio's API: https://api.twilio.com, or the SMS simulator (packages/provider-sims/src/sms) at TWILIO_API_URL. */
export const TWILIO_API_URL = 'https://api.twilio.com';

/** How the Twilio adapter reaches its account. */
export interface TwilioOptions {
  /** The API's base URL (no trailing slash); a function when it is known only once the server listens. */
  baseUrl: string | (() => string | null);
  accountSid: string;
  authToken: string;
  /** The sender: a number of the account (E.164), or else a Messaging Service's SID. */
  sender: { from: string } | { messagingServiceSid: string };
  /**
   * Where Twilio posts the message's status changes (StatusCallback), if anywhere; a function when it is known only
   * once the server listens (null: none yet).
   */
  statusCallback?: string | (() => string | null);
  /** How long one request may take. */
  timeoutMs?: number;
  /** How often a request is made in all when Twilio answers 429 or 5xx or does not answer (at least 1). */
  attempts?: number;
  /** The wait before the first retry, doubled for each next (a Retry-After header, up to 5 s, wins). */
  backoffMs?: number;
  /** Makes the request (fetch by default; the one process passes its own, see compose-providers.ts). */
  fetch?: typeof fetch;
  /** What was sent, kept by the product without its secret (the message's record, e.g. in `mail_outbox`). */
  record?: (message: SmsMessage, sent: { sid: string }) => Promise<void>;
}

/** Twilio's error body: `{code, message, more_info, status}`. */
interface TwilioError {
  code?: number;
  message?: string;
}

/**
 * Twilio's refusals that are about the recipient's number: not a valid number (21211), not reachable by SMS
 * (21612), a region not enabled (21408), unsubscribed (21610), not a mobile number (21614).
 */
const RECIPIENT_REFUSALS = new Set([21211, 21408, 21610, 21612, 21614]);

const retried = (status: number) => status === 429 || status >= 500;

/**
 * SMS through Twilio's Programmable Messaging: `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`,
 * form-encoded (To in E.164, From or MessagingServiceSid, Body, StatusCallback), HTTP Basic with the account SID
 * and auth token. The secret is filled into the body only for this request; `record` keeps the message as its
 * template (the slot, never the secret). A refusal (4xx) throws {@link SmsRejected} at once; 429, 5xx and a
 * network failure are retried with back-off, then throw {@link SmsUnavailable}.
 */
export function createTwilioSms(options: TwilioOptions): SmsPort {
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoffMs = options.backoffMs ?? 500;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const baseUrl = () => (typeof options.baseUrl === 'string' ? options.baseUrl : options.baseUrl());

  async function post(form: URLSearchParams): Promise<{ sid: string }> {
    let last: SmsUnavailable = new SmsUnavailable(null, null, 'not sent');
    /** The wait before the next attempt: the back-off, or the provider's Retry-After. */
    let waitMs = backoffMs;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        await sleep(waitMs);
        waitMs = backoffMs * 2 ** (attempt - 1);
      }
      const base = baseUrl();
      if (!base) {
        last = new SmsUnavailable(null, null, 'the SMS provider is not reachable yet');
        continue;
      }
      let response: Response;
      try {
        response = await (options.fetch ?? fetch)(
          `${base}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`,
          {
            method: 'POST',
            headers: {
              authorization,
              'content-type': 'application/x-www-form-urlencoded',
              accept: 'application/json',
            },
            body: form.toString(),
            signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
          },
        );
      } catch (err) {
        last = new SmsUnavailable(null, null, (err as Error).message);
        continue;
      }
      const text = await response.text();
      const json = parse(text);
      if (response.status === 200 || response.status === 201) {
        const sid = (json as { sid?: unknown } | undefined)?.sid;
        if (typeof sid !== 'string')
          throw new SmsUnavailable(response.status, null, 'no message SID in the answer');
        return { sid };
      }
      const error = (json ?? {}) as TwilioError;
      const message = typeof error.message === 'string' ? error.message : `HTTP ${response.status}`;
      const code = typeof error.code === 'number' ? error.code : null;
      if (!retried(response.status))
        throw new SmsRejected(code ?? 0, response.status, message, RECIPIENT_REFUSALS.has(code ?? 0));
      last = new SmsUnavailable(response.status, code, message);
      waitMs = retryAfter(response.headers.get('retry-after')) ?? waitMs;
    }
    throw last;
  }

  return {
    async send(message) {
      const form = new URLSearchParams({ To: `+${message.to.replace(/^\+/, '')}` });
      if ('from' in options.sender) form.set('From', options.sender.from);
      else form.set('MessagingServiceSid', options.sender.messagingServiceSid);
      form.set('Body', fillSecret(message.text, message.secret));
      const statusCallback =
        typeof options.statusCallback === 'function' ? options.statusCallback() : options.statusCallback;
      if (statusCallback) form.set('StatusCallback', statusCallback);
      const sent = await post(form);
      await options.record?.(message, sent);
    },
  };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A Retry-After header's wait in ms (seconds only), at most 5 s; null when absent. */
function retryAfter(header: string | null): number | null {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, 5000) : null;
}
