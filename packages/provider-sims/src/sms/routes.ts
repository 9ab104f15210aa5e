import { timingSafeEqual } from 'node:crypto';
import type { SmsSimulatorCredentials } from '@exchange/server/provider-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import {
  findMessage,
  type InboxMessage,
  insertMessage,
  newMessageSid,
  type SimMessage,
  takeInbox,
} from './store.ts';

/** Where the SMS simulator answers, on the app's own server or on its own. */
export const SMS_SIM_PREFIX = '/sms-sim';

/**
 * Twilio's magic recipients of its test credentials, each refused as Twilio refuses it (any other E.164 number is
 * accepted). The README's "SMS" section lists them.
 */
export const MAGIC_RECIPIENTS: Record<string, { code: number; message: string }> = {
  '+15005550001': { code: 21211, message: "The 'To' number +15005550001 is not a valid phone number." },
  '+15005550002': { code: 21612, message: "The 'To' phone number is not currently reachable via SMS." },
  '+15005550003': {
    code: 21408,
    message: "Permission to send an SMS has not been enabled for the region indicated by the 'To' number",
  },
  '+15005550004': { code: 21610, message: 'Attempt to send to unsubscribed recipient' },
  '+15005550009': { code: 21614, message: "'To' number is not a valid mobile number" },
};

/**
 * The simulator's own handsets that never receive: a message to one is accepted (201), sent, then undelivered with
 * this Twilio error code (its status, and its status callback's ErrorCode). The README's "SMS" section lists them.
 */
export const UNDELIVERED_RECIPIENTS: Record<string, { code: number; message: string }> = {
  '+15005550010': { code: 30003, message: 'Unreachable destination handset' },
  '+15005550011': { code: 30005, message: 'Unknown destination handset' },
};

export interface SmsSimulatorDeps {
  db: pg.Pool;
  credentials: SmsSimulatorCredentials;
  key: Buffer;
  requestsPerSecond: number;
  /** Tells the status callbacks that some were queued. */
  kick: () => void;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const API = '/2010-04-01/Accounts/:accountSid';

const sendForm = z.object({
  To: z.string().optional(),
  From: z.string().optional(),
  MessagingServiceSid: z.string().optional(),
  Body: z.string().optional(),
  StatusCallback: z.string().optional(),
});

const inboxQuery = z.object({
  to: z.string().max(20).optional(),
  /** Message SIDs, comma-separated. */
  sid: z
    .string()
    .regex(/^SM[0-9a-f]{32}(,SM[0-9a-f]{32}){0,499}$/)
    .transform((v) => v.split(','))
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/** Twilio's error body. */
function twilioError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply
    .status(status)
    .send({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

/** RFC 2822 dates, as Twilio's API writes them. */
const rfc2822 = (date: Date) => date.toUTCString().replace('GMT', '+0000');

/** When a message is sent, and when the handset's receipt (or the carrier's refusal) comes, after its acceptance. */
const SENT_AFTER_S = 1;
const FINAL_AFTER_S = 2;

/** The status a message ends in: delivered, or undelivered to one of {@link UNDELIVERED_RECIPIENTS}. */
function finalOf(to: string): { status: string; error: { code: number; message: string } | null } {
  const error = UNDELIVERED_RECIPIENTS[to] ?? null;
  return { status: error ? 'undelivered' : 'delivered', error };
}

/**
 * The status a message has reached: accepted (by a Messaging Service) or queued when it is new, sent after a
 * second, delivered (or undelivered) after two (the handset's receipt).
 */
function statusOf(message: SimMessage): {
  status: string;
  sentAt: Date | null;
  error: { code: number; message: string } | null;
} {
  const age = message.now.getTime() - message.created_at.getTime();
  const sentAt = new Date(message.created_at.getTime() + SENT_AFTER_S * 1000);
  if (age >= FINAL_AFTER_S * 1000) return { ...finalOf(message.to_number), sentAt };
  if (age >= SENT_AFTER_S * 1000) return { status: 'sent', sentAt, error: null };
  return { status: message.messaging_service_sid ? 'accepted' : 'queued', sentAt: null, error: null };
}

/**
 * The status callbacks of a new message, as Twilio posts them to its StatusCallback URL: form parameters of its
 * sent and its final status (ErrorCode with undelivered), each due that many seconds after acceptance.
 */
function callbacksOf(message: {
  sid: string;
  accountSid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
}): { status: string; payload: string; afterSeconds: number }[] {
  const final = finalOf(message.to);
  const form = (status: string, errorCode: number | null) => {
    const params = new URLSearchParams({ AccountSid: message.accountSid, ApiVersion: '2010-04-01' });
    if (errorCode !== null) params.set('ErrorCode', String(errorCode));
    if (message.from) params.set('From', message.from);
    params.set('MessageSid', message.sid);
    params.set('MessageStatus', status);
    if (message.messagingServiceSid) params.set('MessagingServiceSid', message.messagingServiceSid);
    params.set('SmsSid', message.sid);
    params.set('SmsStatus', status);
    params.set('To', message.to);
    return params.toString();
  };
  return [
    { status: 'sent', payload: form('sent', null), afterSeconds: SENT_AFTER_S },
    {
      status: final.status,
      payload: form(final.status, final.error?.code ?? null),
      afterSeconds: FINAL_AFTER_S,
    },
  ];
}

/** A message resource as Twilio's API returns it (`body` only in the answer to the request that sent it). */
function resource(message: SimMessage, body: string) {
  const { status, sentAt, error } = statusOf(message);
  const uri = `/2010-04-01/Accounts/${message.account_sid}/Messages/${message.sid}`;
  return {
    account_sid: message.account_sid,
    api_version: '2010-04-01',
    body,
    date_created: rfc2822(message.created_at),
    date_sent: sentAt ? rfc2822(sentAt) : null,
    date_updated: rfc2822(sentAt ?? message.created_at),
    direction: 'outbound-api',
    error_code: error?.code ?? null,
    error_message: error?.message ?? null,
    from: message.from_number,
    messaging_service_sid: message.messaging_service_sid,
    num_media: '0',
    num_segments: String(message.num_segments),
    price: null,
    price_unit: 'USD',
    sid: message.sid,
    status,
    subresource_uris: { media: `${uri}/Media.json` },
    to: message.to_number,
    uri: `${uri}.json`,
  };
}

/** GSM-7 texts take 160 characters a segment (153 when split), others 70 (67). */
function segments(body: string): number {
  const gsm = /^[\n\r\x20-\x7e£¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¡ÄÖÑÜ§¿äöñüà€]*$/.test(body);
  const [single, multi] = gsm ? [160, 153] : [70, 67];
  return body.length <= single ? 1 : Math.ceil(body.length / multi);
}

/**
 * Twilio's Programmable Messaging as its API answers (`POST …/Messages.json` form-encoded, `GET
 * …/Messages/{Sid}.json`, HTTP Basic with the account SID and auth token), and the developer's phone inbox
 * (`GET /inbox?to=+…` or `?sid=SM…,SM…`, with the same credentials): each message's text is shown on one read,
 * then gone.
 */
export async function smsSimulatorRoutes(app: FastifyInstance, deps: SmsSimulatorDeps): Promise<void> {
  const { credentials, key, db } = deps;
  // Twilio's API is form-encoded; the simulator reads its fields as they come (the host's own parser, if any, is
  // for its API's shapes).
  if (app.hasContentTypeParser('application/x-www-form-urlencoded'))
    app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const windows = new Map<string, { second: number; count: number }>();
  /** Answers 401 (20003) without the account's Basic credentials, 429 (20429) over its request budget. */
  const authorized = (request: FastifyRequest, reply: FastifyReply, accountSid: string): boolean => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64') : Buffer.alloc(0);
    const expected = Buffer.from(`${credentials.accountSid}:${credentials.authToken}`);
    const ok =
      given.length === expected.length &&
      timingSafeEqual(given, expected) &&
      accountSid === credentials.accountSid;
    if (!ok) {
      void twilioError(reply, 401, 20003, 'Authenticate');
      return false;
    }
    const second = Math.floor(Date.now() / 1000);
    const window = windows.get(accountSid);
    if (window?.second === second) window.count += 1;
    else windows.set(accountSid, { second, count: 1 });
    if ((windows.get(accountSid)?.count ?? 0) > deps.requestsPerSecond) {
      void twilioError(reply, 429, 20429, 'Too Many Requests');
      return false;
    }
    return true;
  };

  app.post(`${API}/Messages.json`, async (request, reply) => {
    const { accountSid } = request.params as { accountSid: string };
    if (!authorized(request, reply, accountSid)) return reply;
    const form = sendForm.safeParse(request.body ?? {});
    if (!form.success) return twilioError(reply, 400, 21602, 'Message body is required.');
    const { To, From, MessagingServiceSid, Body, StatusCallback } = form.data;
    if (!To) return twilioError(reply, 400, 21604, "A 'To' phone number is required.");
    if (!E164.test(To))
      return twilioError(reply, 400, 21211, `The 'To' number ${To} is not a valid phone number.`);
    if (!From && !MessagingServiceSid)
      return twilioError(reply, 400, 21603, "A 'From' phone number is required.");
    if (From && From !== credentials.from)
      return twilioError(
        reply,
        400,
        21606,
        `The From phone number ${From} is not a valid, SMS-capable inbound phone number or short code for your account.`,
      );
    if (MessagingServiceSid && MessagingServiceSid !== credentials.messagingServiceSid)
      return twilioError(reply, 404, 20404, `The requested resource ${MessagingServiceSid} was not found`);
    if (!Body) return twilioError(reply, 400, 21602, 'Message body is required.');
    if (Body.length > 1600)
      return twilioError(
        reply,
        400,
        21617,
        'The concatenated message body exceeds the 1600 character limit.',
      );
    if (StatusCallback !== undefined && !z.url().safeParse(StatusCallback).success)
      return twilioError(reply, 400, 21609, 'Invalid StatusCallback url');
    const magic = MAGIC_RECIPIENTS[To];
    if (magic) return twilioError(reply, 400, magic.code, magic.message);
    const message = {
      sid: newMessageSid(),
      accountSid,
      to: To,
      from: MessagingServiceSid && !From ? null : (From ?? null),
      messagingServiceSid: MessagingServiceSid ?? null,
    };
    const stored = await insertMessage(db, key, {
      ...message,
      body: Body,
      numSegments: segments(Body),
      statusCallback: StatusCallback ?? null,
      callbacks: StatusCallback ? callbacksOf(message) : [],
    });
    if (StatusCallback) deps.kick();
    return reply.status(201).send(resource(stored, Body));
  });

  app.get(`${API}/Messages/:sid`, async (request, reply) => {
    const { accountSid, sid } = request.params as { accountSid: string; sid: string };
    if (!authorized(request, reply, accountSid)) return reply;
    const found = sid.endsWith('.json') ? await findMessage(db, accountSid, sid.slice(0, -5)) : undefined;
    if (!found) return twilioError(reply, 404, 20404, `The requested resource ${request.url} was not found`);
    // The text stays on the handset: the account's view of a message shows none, as with content retention off.
    return resource(found, '');
  });

  app.get('/inbox', async (request, reply) => {
    if (!authorized(request, reply, credentials.accountSid)) return reply;
    const query = inboxQuery.safeParse(request.query);
    if (!query.success)
      return twilioError(reply, 400, 20001, 'The inbox is read by a number (to) or message SIDs (sid)');
    reply.header('cache-control', 'no-store');
    const { to, sid, limit } = query.data;
    const messages = await takeInbox(db, key, { accountSid: credentials.accountSid, to, sids: sid, limit });
    return messages.map((m: InboxMessage) => ({
      sid: m.sid,
      to: m.to_number,
      from: m.from_number ?? m.messaging_service_sid,
      body: m.body,
      status: statusOf(m).status,
      date_created: m.created_at.toISOString(),
    }));
  });
}
