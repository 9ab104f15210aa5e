import { Busboy } from '@fastify/busboy';
import type { FastifyInstance } from 'fastify';

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
}

/**
 * Takes multipart bodies in this scope as raw bytes (so a signed request can be checked over exactly what was
 * sent) up to `bodyLimit`; {@link parseMultipart} reads them.
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
  limits: { maxFileBytes: number; maxFiles: number },
): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    const result: MultipartBody = { fields: {}, files: [], tooManyFiles: false };
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: { 'content-type': contentType },
        limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: 50, fieldSize: 10_000 },
      });
    } catch (err) {
      reject(err);
      return;
    }
    const pending: Promise<void>[] = [];
    parser.on('field', (name, value) => {
      result.fields[name] = value;
    });
    parser.on('file', (field, stream, fileName, _encoding, mimeType) => {
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
    parser.on('error', reject);
    parser.on('finish', () => {
      Promise.all(pending).then(() => resolve(result), reject);
    });
    parser.end(body);
  });
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
