import { type SimulatedInbox, simulatedInbox } from '../simulated-inbox.ts';

/** The mail simulator's mailbox: delivered texts by Message-ID, each once. */
export type MailInbox = SimulatedInbox;

/** The mail simulator's mailbox, as it is read. */
export interface SimulatorMailboxOptions {
  /** The simulator's base URL (where its mailbox is); null while the server does not listen yet. */
  baseUrl: () => string | null;
  user: string;
  password: string;
  timeoutMs?: number;
  /** Makes the request (fetch by default; the one process passes its own, see compose-providers.ts). */
  fetch?: typeof fetch;
}

/**
 * The mail simulator's mailbox over HTTP (`GET {base}/mailbox?message_id=…`, Basic with its SMTP login): the
 * development outbox asks it for the texts of the mails it shows. A real mail server has no such thing.
 */
export function simulatorMailbox(options: SimulatorMailboxOptions): MailInbox {
  return simulatedInbox({
    baseUrl: options.baseUrl,
    path: '/mailbox',
    idParam: 'message_id',
    // A Message-ID as the SMTP sender records it: angle brackets around id-left@id-right.
    idPattern: /^<[^<>,\s]{1,250}>$/,
    user: options.user,
    password: options.password,
    // A mail's text comes back with the line break that ends the body on the wire; the template has none.
    read: (m) => ({
      id: String(m.message_id),
      text: typeof m.text === 'string' ? m.text.replace(/\r?\n$/, '') : null,
    }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
