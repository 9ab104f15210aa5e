/**
 * The load generator: closed loops of HTTP/1.1 keep-alive connections, each sending its next request as soon as
 * the previous answer is complete, run in a process of its own so that it does not share the server's event loop.
 * Prints the figures as JSON on stdout.
 *
 * It is written for one job, to cost the machine as little as possible per request: the server under test shares
 * these two cores with it, and every microsecond spent here is one the server does not get. A request is one
 * string written to the socket; an answer is read by its status line and `content-length` (or chunked framing)
 * and nothing else. API-key mode signs every request with a fresh nonce (HMAC-SHA256 of nonce + kid, as Barong
 * does), spread over several keys. Only answers completed within `duration` are counted.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { connect, type Socket } from 'node:net';

interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  body?: string;
  apiKeys?: { kid: string; secret: string }[];
}

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const target = new URL(spec.url);
const body = spec.body ?? '';
const fixedHeaders = Object.entries({ host: target.host, ...spec.headers })
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');
const head = `${spec.method} ${target.pathname}${target.search} HTTP/1.1\r\n${fixedHeaders}`;
const tail = `${body.length > 0 || spec.method === 'POST' ? `content-length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`;
let turn = 0;

const unsigned = Buffer.from(head + tail);

/**
 * Each key as the signer uses it: the secret prepared once as a key object (HMAC with a string secret prepares it on
 * every request), the request's text up to the nonce, and the last nonce it sent.
 */
const signers = (spec.apiKeys ?? []).map((key) => ({
  kid: key.kid,
  secret: createSecretKey(Buffer.from(key.secret, 'utf8')) as KeyObject,
  prefix: `${head}x-auth-apikey: ${key.kid}\r\nx-auth-nonce: `,
  lastNonce: 0,
}));

/** The next request's bytes: the fixed part, plus a signature for API-key mode. */
function nextRequest(): string | Buffer {
  if (signers.length === 0) return unsigned;
  const key = signers[turn++ % signers.length] as (typeof signers)[number];
  const nonce = Math.max(Date.now(), key.lastNonce + 1);
  key.lastNonce = nonce;
  const signature = createHmac('sha256', key.secret).update(`${nonce}${key.kid}`).digest('hex');
  return `${key.prefix}${nonce}\r\nx-auth-signature: ${signature}\r\n${tail}`;
}

const latencies: number[] = [];
const statusCodes: Record<string, { count: number }> = {};
const count = (status: string | number) => {
  const entry = statusCodes[status];
  if (entry) entry.count++;
  else statusCodes[status] = { count: 1 };
};
const started = performance.now();
const endsAt = started + spec.duration * 1000;
const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('0\r\n\r\n');

const LENGTH_NAMES = [Buffer.from('\r\ncontent-length:'), Buffer.from('\r\nContent-Length:')];
const CHUNKED_NAMES = [
  Buffer.from('\r\ntransfer-encoding: chunked'),
  Buffer.from('\r\nTransfer-Encoding: chunked'),
];

/** Where one of `names` starts in `data` before `end`, or -1. */
function find(data: Buffer, names: Buffer[], end: number): number {
  for (const name of names) {
    const at = data.indexOf(name);
    if (at >= 0 && at < end) return at + name.length;
  }
  return -1;
}

/**
 * The length of the first complete answer in `data`, and its status, or undefined while it is incomplete. Read
 * from the bytes, without decoding the head to text. Framing by `content-length`, or chunked (complete at the last
 * chunk; answers here carry no trailers).
 */
function completeAnswer(data: Buffer): { length: number; status: number } | undefined {
  const headerEnd = data.indexOf(HEADER_END);
  if (headerEnd < 0) return undefined;
  const digit = (i: number) => (data[i] as number) - 0x30;
  const status = digit(9) * 100 + digit(10) * 10 + digit(11);
  let at = find(data, LENGTH_NAMES, headerEnd);
  if (at >= 0) {
    while (data[at] === 0x20) at++;
    let bodyLength = 0;
    for (let c = data[at] as number; c >= 0x30 && c <= 0x39; c = data[++at] as number)
      bodyLength = bodyLength * 10 + c - 0x30;
    const length = headerEnd + 4 + bodyLength;
    return data.length >= length ? { length, status } : undefined;
  }
  if (find(data, CHUNKED_NAMES, headerEnd) >= 0) {
    const end = data.indexOf(CHUNKED_END, headerEnd + 4);
    return end < 0 ? undefined : { length: end + CHUNKED_END.length, status };
  }
  return { length: headerEnd + 4, status };
}

/**
 * One closed loop until `duration` is over. A connection the server closes (or that fails) is counted under
 * `closed` or `error` and opened again, as a client would, so the load keeps its number of connections.
 */
function runConnection(): Promise<void> {
  return new Promise((resolve) => {
    let socket: Socket;
    const open = () => {
      socket = connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      let pending: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      let failed = false;
      const send = () => {
        sentAt = performance.now();
        socket.write(nextRequest());
      };
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        for (;;) {
          const answer = completeAnswer(pending);
          if (!answer) return;
          pending = pending.subarray(answer.length);
          const now = performance.now();
          if (now > endsAt) {
            socket.destroy();
            return;
          }
          latencies.push(now - sentAt);
          count(answer.status);
          send();
        }
      });
      socket.on('error', () => {
        failed = true;
        count('error');
      });
      socket.on('close', () => {
        if (performance.now() >= endsAt) return resolve();
        if (!failed) count('closed');
        // A refused connection is tried again after a pause, not in a spin that would take the server's core.
        setTimeout(open, failed ? 20 : 0);
      });
    };
    open();
    // An answer still missing at the end is not waited for.
    setTimeout(
      () => {
        socket.destroy();
        resolve();
      },
      spec.duration * 1000 + 2000,
    ).unref();
  });
}

await Promise.all(Array.from({ length: spec.connections }, runConnection));
latencies.sort((a, b) => a - b);
const percentile = (p: number) => {
  const at = latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return Math.round(at * 10) / 10;
};
const total = latencies.length;
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: total / spec.duration,
    p50: percentile(50),
    p99: percentile(99),
    non2xx: Object.entries(statusCodes).reduce((n, [s, c]) => n + (/^[13-5]/.test(s) ? c.count : 0), 0),
    total,
    statusCodes,
    cpu: process.cpuUsage(),
  }),
);
