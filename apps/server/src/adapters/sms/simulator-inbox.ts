import { simulatedInbox } from '../simulated-inbox.ts';
import type { SmsInbox } from './port.ts';

/** The SMS simulator's account, as its phone inbox is read with. */
export interface SimulatorInboxOptions {
  /** The simulator's base URL (where its Twilio API is); null while the server does not listen yet. */
  baseUrl: () => string | null;
  accountSid: string;
  authToken: string;
  timeoutMs?: number;
  /** Makes the request (fetch by default; the one process passes its own, see compose-providers.ts). */
  fetch?: typeof fetch;
}

/**
 * The SMS simulator's phone inbox over HTTP (`GET {base}/inbox?sid=…`, Basic with the account's SID and token):
 * the development outbox asks it for the texts of the messages it shows. A real provider has no such thing.
 */
export function simulatorInbox(options: SimulatorInboxOptions): SmsInbox {
  return simulatedInbox({
    baseUrl: options.baseUrl,
    path: '/inbox',
    idParam: 'sid',
    idPattern: /^SM[0-9a-f]{32}$/,
    user: options.accountSid,
    password: options.authToken,
    read: (m) => ({ id: String(m.sid), text: typeof m.body === 'string' ? m.body : null }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
