import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** A response read off a raw socket. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request written by hand on its own connection, its body held back in part. */
export interface HeldRequest {
  /** The response, whenever the server sends one (rejects if the connection ends without one). */
  answered: Promise<RawAnswer>;
  /** Writes the rest of the body (ignored if the server has closed the connection). */
  finish(): void;
  close(): void;
}

export interface HeldRequestOptions {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Bytes at the end of the body not written until {@link HeldRequest.finish}. */
  withhold: number;
  /** Send the body chunked (no Content-Length) instead of with its length. */
  chunked?: boolean;
}

/**
 * Opens a connection and writes a request's head and all of its body but the last `withhold` bytes, so the
 * server is answering while the body is still "in flight": a response that arrives before `finish` came
 * without the server waiting for the whole body. Write errors after the server closed are ignored.
 */
export function heldRequest(base: string, options: HeldRequestOptions): HeldRequest {
  const url = new URL(base);
  const socket: Socket = connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  const head = [
    `${options.method} ${options.path} HTTP/1.1`,
    `host: ${url.host}`,
    ...Object.entries(options.headers).map(([k, v]) => `${k}: ${v}`),
    options.chunked ? 'transfer-encoding: chunked' : `content-length: ${options.body.length}`,
    '',
    '',
  ].join('\r\n');
  const frame = (part: Buffer) =>
    options.chunked && part.length > 0
      ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')])
      : part;
  const cut = options.body.length - options.withhold;
  let closed = false;
  const write = (part: Buffer) => {
    if (!closed && !socket.destroyed) socket.write(frame(part));
  };
  const answered = new Promise<RawAnswer>((resolve, reject) => {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseAnswer(received);
      if (answer) resolve(answer);
    });
    socket.on('close', () => {
      closed = true;
      reject(new Error(`${options.path}: connection closed without a complete answer`));
    });
    // EPIPE / ECONNRESET once the server has answered and closed: the answer, if any, was read before.
    socket.on('error', () => {});
  });
  answered.catch(() => {});
  socket.once('connect', () => {
    socket.write(head);
    for (let at = 0; at < cut; at += 256 * 1024)
      write(options.body.subarray(at, Math.min(cut, at + 256 * 1024)));
  });
  return {
    answered,
    finish() {
      write(options.body.subarray(cut));
      if (options.chunked) write(Buffer.from('0\r\n\r\n'));
    },
    close() {
      closed = true;
      socket.destroy();
    },
  };
}

/** A complete response in `bytes` (head and a Content-Length body), or null while more is to come. */
function parseAnswer(bytes: Buffer): RawAnswer | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (bytes.length < end + 4 + length) return null;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: bytes.subarray(end + 4, end + 4 + length).toString('utf8'),
  };
}

/** A multipart/form-data body of text fields and one file of `fileBytes` bytes (a PNG by its first bytes). */
export function multipartBody(
  fields: Record<string, string>,
  file: { field: string; name: string; bytes: number },
): { body: Buffer; contentType: string } {
  const boundary = `----raw${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const content = Buffer.alloc(file.bytes, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(content);
  const body = Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="${file.field}"; filename="${file.name}"\r\ncontent-type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
