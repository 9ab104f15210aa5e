import type { Readable } from 'node:stream';
import { ERRORS } from '@exchange/shared';
import { Busboy } from '@fastify/busboy';
import { errorCodes, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/** One uploaded file, fully read; `truncated` when it was larger than the per-file limit. */
export interface UploadedFile {
  field: string;
  fileName: string;
  declaredType: string;
  content: Buffer;
  truncated: boolean;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
  /** More files were sent than the limit allows. */
  tooManyFiles: boolean;
  /**
   * {@link readMultipart} only: a file passed `maxFileBytes`, so reading stopped there (that file is marked
   * truncated; parts after it are missing).
   */
  fileTooLarge?: boolean;
}

/** Per-file and file-count limits of one multipart read. */
export interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
}

/**
 * Takes multipart bodies in this scope as raw bytes up to `bodyLimit`; {@link parseMultipart} reads them. Only
 * for the built-in providers' simulators: the KYC simulator checks a request signature over exactly the bytes
 * that were sent (as Sumsub does), which needs the whole body before anything parses it. The exchange's own
 * upload routes stream instead ({@link streamMultipart}).
 */
export function acceptMultipart(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
    done(null, body),
  );
}

/** Parses a buffered multipart/form-data body; each file is cut at `maxFileBytes` and marked truncated. */
export function parseMultipart(
  body: Buffer,
  contentType: string,
  limits: MultipartLimits,
): Promise<MultipartBody> {
  try {
    const { parser, finished } = multipartParser(contentType, limits, () => {});
    parser.end(body);
    return finished;
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * A multipart body not read yet: what {@link streamMultipart} leaves in `request.body`, for the route to read
 * with {@link readMultipart} once the request is authenticated and within its rate limit.
 */
export class PendingMultipart {
  constructor(
    readonly stream: Readable,
    readonly contentType: string,
    readonly maxBytes: number,
  ) {}
}

/**
 * Leaves multipart bodies in this scope unread ({@link PendingMultipart}) so the route streams them. A declared
 * `Content-Length` above `maxBodyBytes` is refused with 413 before a byte of the body is read (and the
 * connection is closed); a chunked body is cut off at `maxBodyBytes` while it is read.
 */
export function streamMultipart(app: FastifyInstance, maxBodyBytes: number): void {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    if (Number(request.headers['content-length']) > maxBodyBytes)
      return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    done(null, new PendingMultipart(payload, String(request.headers['content-type']), maxBodyBytes));
  });
}

/**
 * Reads the request's {@link PendingMultipart} body through busboy as it arrives; null when the body is not a
 * multipart form (or is malformed, or the client went away). Nothing beyond the limits is kept: the first file
 * to pass `maxFileBytes` stops the read at once (the form so far comes back with `fileTooLarge`), and a body
 * passing its scope's byte limit is refused with 413. Nothing after that is parsed or kept: the rest of a body
 * within its byte limit is dropped as it arrives for a short while ({@link dropTheRest}), and the connection of a
 * body past it is closed after the answer.
 */
export function readMultipart(
  request: FastifyRequest,
  reply: FastifyReply,
  limits: MultipartLimits,
): Promise<MultipartBody | null> {
  const pending = request.body;
  if (!(pending instanceof PendingMultipart)) return Promise.resolve(null);
  const { stream: source, maxBytes } = pending;
  return new Promise<MultipartBody | null>((resolve, reject) => {
    let settled = false;
    let received = 0;
    const detach = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onAbort);
      source.off('close', onClose);
    };
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      detach();
      done();
    };
    // Stops parsing: the answer goes out now. What the client is still sending is dropped as it arrives, within
    // the body's byte limit and for a short while after the answer, then the connection is cut; a body past its
    // byte limit is cut right after the answer.
    const stop = (done: () => void, overLimit = false) =>
      settle(() => {
        if (overLimit) {
          source.pause();
          reply.header('connection', 'close');
        } else dropTheRest(request, reply, source, maxBytes - received);
        done();
      });
    let parser: ReturnType<typeof multipartParser>;
    try {
      parser = multipartParser(pending.contentType, limits, (form) =>
        stop(() => resolve({ ...form, fileTooLarge: true })),
      );
    } catch {
      stop(() => resolve(null));
      return;
    }
    parser.finished.then(
      (form) => settle(() => resolve(form)),
      () => stop(() => resolve(null)),
    );
    function onData(chunk: Buffer) {
      received += chunk.length;
      if (received > maxBytes) return stop(() => reject(new AppError(413, [ERRORS.payloadTooLarge])), true);
      if (!parser.parser.write(chunk)) {
        source.pause();
        parser.parser.once('drain', () => {
          if (!settled) source.resume();
        });
      }
    }
    function onEnd() {
      parser.parser.end();
    }
    function onAbort() {
      stop(() => resolve(null));
    }
    // The client went away before the body ended.
    function onClose() {
      if (!source.readableEnded) onAbort();
    }
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onAbort);
    source.on('close', onClose);
  });
}

/** How long a body refused before its end may go on arriving, read and dropped, once the answer is sent. */
const LINGER_AFTER_ANSWER_MS = 2_000;

/**
 * Reads and drops the rest of a body that was refused before its end, up to `budget` bytes and for
 * {@link LINGER_AFTER_ANSWER_MS} after the answer, then cuts the connection. Closing at once, with the client's
 * bytes still arriving, makes the kernel answer them with a reset, and a client busy sending may lose the answer
 * with it (the refusal becomes "connection reset"); the way a body that does end is handled stays HTTP's own.
 */
function dropTheRest(request: FastifyRequest, reply: FastifyReply, source: Readable, budget: number): void {
  const socket = request.raw.socket;
  let left = budget;
  let timer: NodeJS.Timeout | undefined;
  const done = () => clearTimeout(timer);
  const cut = () => {
    done();
    socket.destroy();
  };
  reply.raw.once('finish', () => {
    if (source.readableEnded) return;
    timer = setTimeout(cut, LINGER_AFTER_ANSWER_MS);
    timer.unref();
  });
  source.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) cut();
  });
  source.once('end', done);
  source.once('close', done);
  source.resume();
}

/**
 * A busboy parser collecting fields and files; `finished` settles once the body ended and every file was read.
 * `onFileTooLarge` is called with the form so far as soon as a file passes `maxFileBytes`.
 */
function multipartParser(
  contentType: string,
  limits: MultipartLimits,
  onFileTooLarge: (form: MultipartBody) => void,
) {
  const result: MultipartBody = { fields: {}, files: [], tooManyFiles: false };
  const parser = Busboy({
    headers: { 'content-type': contentType },
    limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: 50, fieldSize: 10_000 },
  });
  const pending: Promise<void>[] = [];
  parser.on('field', (name, value) => {
    result.fields[name] = value;
  });
  parser.on('file', (field, stream, fileName, _encoding, mimeType) => {
    stream.on('limit', () => onFileTooLarge(result));
    pending.push(
      new Promise((done, fail) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', fail);
        stream.on('end', () => {
          result.files.push({
            field,
            fileName: fileName ?? '',
            declaredType: mimeType,
            content: Buffer.concat(chunks),
            truncated: Boolean((stream as { truncated?: boolean }).truncated),
          });
          done();
        });
      }),
    );
  });
  parser.on('filesLimit', () => {
    result.tooManyFiles = true;
  });
  const finished = new Promise<MultipartBody>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('finish', () => {
      Promise.all(pending).then(() => resolve(result), reject);
    });
  });
  return { parser, finished };
}

/** The kinds of upload accepted for identity documents (trading spec: JPG, JPEG, PNG or PDF). */
export type DocumentMime = 'image/jpeg' | 'image/png' | 'application/pdf';

/**
 * The real type of a file from its first bytes, never from its name or declared type: JPEG (`FF D8 FF`),
 * PNG (its 8-byte signature) or PDF (`%PDF-`); null for anything else.
 */
export function sniffDocumentType(content: Buffer): DocumentMime | null {
  if (content.length >= 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff)
    return 'image/jpeg';
  if (content.length >= 8 && content.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (content.length >= 5 && content.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** At most 2 MB per document (trading spec, FAQ). */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
