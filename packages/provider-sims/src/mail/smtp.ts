import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { MailSimulatorCredentials } from '@exchange/server/provider-kit';
import type pg from 'pg';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { insertMail } from './store.ts';

/** The largest message the server takes (announced in EHLO's SIZE; past it, 552). */
export const MAX_MESSAGE_BYTES = 1 << 20;

/** Recipients at this domain are refused for good (550 5.1.1, no such mailbox): a bounce. */
export const BOUNCE_DOMAIN = 'bounce.example';
/** Recipients at this domain are refused for now (451 4.3.2): the sender is to try again later. */
export const DEFER_DOMAIN = 'defer.example';

/** An SMTP refusal: smtp-server answers with the error's responseCode and message. */
function refusal(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** A stream's bytes, up to the server's limit (the rest is drained, as SMTP must read the whole DATA). */
async function collect(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_MESSAGE_BYTES) chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The mail server's SMTP side, as a submission server answers (RFC 5321, AUTH PLAIN/LOGIN per RFC 4954): a client
 * must log in with the simulator's credentials (535 otherwise), a message over {@link MAX_MESSAGE_BYTES} is 552,
 * recipients at {@link BOUNCE_DOMAIN} are 550 and at {@link DEFER_DOMAIN} 451. Each accepted message is parsed
 * (MIME, transfer encodings, encoded words) and kept once per recipient. Plain text only: it listens on loopback
 * (no STARTTLS), where the exchange's mail sender is.
 */
export function createSmtpServer(
  db: pg.Pool,
  key: Buffer,
  credentials: MailSimulatorCredentials,
): SMTPServer {
  return new SMTPServer({
    name: 'mail-sim.local',
    banner: 'exchange mail simulator',
    size: MAX_MESSAGE_BYTES,
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Closing waits this long for a client's open connection (the sender's pool) before it ends it.
    closeTimeout: 500,
    onAuth(auth, _session, callback) {
      if (same(auth.username ?? '', credentials.user) && same(auth.password ?? '', credentials.password))
        callback(null, { user: credentials.user });
      else callback(refusal(535, 'Error: authentication failed'));
    },
    onRcptTo(address, _session, callback) {
      const domain = address.address.split('@').pop()?.toLowerCase();
      if (domain === BOUNCE_DOMAIN) callback(refusal(550, '5.1.1 No such mailbox'));
      else if (domain === DEFER_DOMAIN) callback(refusal(451, '4.3.2 Try again later'));
      else callback();
    },
    onData(stream, session, callback) {
      collect(stream)
        .then(async (raw) => {
          if (stream.sizeExceeded) return callback(refusal(552, '5.3.4 Message too big'));
          // Loaded with the first message, not at the exchange's start (it is most of the simulator's code).
          const { simpleParser } = await import('mailparser');
          const parsed = await simpleParser(raw);
          const from = session.envelope.mailFrom;
          await insertMail(db, key, {
            messageId: parsed.messageId ?? `<${randomUUID()}@mail-sim.local>`,
            from: from ? from.address : '',
            recipients: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            sizeBytes: raw.length,
          });
          callback();
        })
        .catch(() => callback(refusal(451, '4.3.0 Could not keep the message, try again later')));
    },
  });
}

/** Starts `server` on `host:port` (0: any free port); resolves with the port it took. */
export function listenSmtp(server: SMTPServer, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}
