import { ERRORS } from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import type { SmsStatusWebhook } from '../../adapters/sms/port.ts';
import { formParams, TWILIO_SIGNATURE_HEADER, verifyTwilioSignature } from '../../adapters/sms/signing.ts';
import { type Clock, dateOf } from '../../clock.ts';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { recordSmsStatus, SMS_STATUS_RANK } from './sms-status-repository.ts';

/** Path of the SMS provider's status callbacks (Twilio's StatusCallback), under the identity prefix. */
export const SMS_STATUS_PATH = '/public/sms/twilio/status';

/** Largest status callback read: Twilio's are a few hundred bytes of form parameters. */
export const SMS_STATUS_BODY_LIMIT = 16 * 1024;

/** Per client address: the provider's bursts fit, a flood of unsigned posts does not. */
const WEBHOOK_RATE = { config: { rateLimit: { max: 300, timeWindow: '1 minute' } } };

/** What the route uses of the app. */
export interface SmsStatusRouteDeps {
  db: pg.Pool;
  clock: Clock;
  /** How callbacks are checked; absent when no StatusCallback is sent (SMS_PROVIDER=outbox, or no URL set). */
  smsStatus?: SmsStatusWebhook;
}

const callback = z.object({
  MessageSid: z.string().regex(/^(SM|MM)[0-9a-fA-F]{32}$/),
  MessageStatus: z.string().min(1).max(40),
  ErrorCode: z.string().optional(),
});

const outcome = z.object({ status: z.enum(['recorded', 'stale', 'unknown', 'ignored']) });

/** The URL a callback was signed for: the configured StatusCallback, or else the one this request came to. */
function signedUrl(request: FastifyRequest, webhook: SmsStatusWebhook): string {
  return webhook.url ?? `${request.protocol}://${request.headers.host ?? request.hostname}${request.url}`;
}

/**
 * The SMS provider's status callbacks (identity prefix, no session): form-encoded MessageSid, MessageStatus and,
 * for a text not delivered, ErrorCode, signed with `X-Twilio-Signature` (refused 401 without it before the body is
 * read, and with a wrong one after). The status is recorded on the text's outbox record (by its message SID) only
 * when it is further along than the one kept, so repeats and late callbacks change nothing; a status Twilio does
 * not send for outgoing texts is ignored. Answered 200 whatever became of it, so the provider does not retry.
 */
export async function smsStatusRoutes(app: FastifyInstance, deps: SmsStatusRouteDeps): Promise<void> {
  const webhook = deps.smsStatus;
  if (!webhook) return;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: SMS_STATUS_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post(
    SMS_STATUS_PATH,
    {
      ...docs(
        'SMS status callbacks (Twilio StatusCallback, signed with X-Twilio-Signature)',
        { bodyType: 'raw', response: outcome, errors: [400, 401] },
        WEBHOOK_RATE,
      ),
      preParsing: async (request) => {
        if (typeof request.headers[TWILIO_SIGNATURE_HEADER] !== 'string')
          throw new AppError(401, [ERRORS.smsWebhookInvalidSignature]);
      },
    },
    async (request) => {
      const params = formParams(typeof request.body === 'string' ? request.body : '');
      const header = request.headers[TWILIO_SIGNATURE_HEADER];
      if (!verifyTwilioSignature(webhook.authToken, signedUrl(request, webhook), params, header))
        throw new AppError(401, [ERRORS.smsWebhookInvalidSignature]);
      const parsed = callback.safeParse(Object.fromEntries(params));
      if (!parsed.success) throw new AppError(400, [ERRORS.smsWebhookInvalidPayload]);
      const { MessageSid, MessageStatus, ErrorCode } = parsed.data;
      if (SMS_STATUS_RANK[MessageStatus] === undefined) return { status: 'ignored' as const };
      const errorCode = ErrorCode && /^\d{1,9}$/.test(ErrorCode) ? Number(ErrorCode) : null;
      const status = await recordSmsStatus(deps.db, {
        providerRef: MessageSid,
        status: MessageStatus,
        errorCode,
        at: dateOf(deps.clock),
      });
      return { status };
    },
  );
}
