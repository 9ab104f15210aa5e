import { Readable, Transform } from 'node:stream';
import yazl from 'yazl';

/**
 * One table of the data export: its rows, a batch (a page of the database) at a time, oldest first. `batches` is
 * called once per file written from it (the CSV, then the JSON), and must give the same rows each time.
 */
export interface Section {
  /** The files' name without extension: `orders` gives `orders.csv` and `orders.json`. */
  name: string;
  /** The CSV's columns, in order: fields of each row (a nested value is written as its JSON text). */
  columns: readonly string[];
  batches(): AsyncIterable<readonly Record<string, unknown>[]>;
}

/** A file of the archive: its path and its bytes, produced as the archive is read. */
export interface ArchiveFile {
  path: string;
  content(): AsyncIterable<Buffer>;
}

/**
 * A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A text a spreadsheet would run as a
 * formula (`=`, `+`, `@`, a tab, or `-` not followed by a digit) gets a leading `'`, so opening the file never runs
 * anything a third party put in a field (a merchant name, a note); amounts such as `-1.5` stay numbers. Times are
 * ISO 8601 in UTC; objects and lists are their JSON text; null is empty.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text =
    value instanceof Date
      ? value.toISOString()
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  if (/^[=+@\t\r]/.test(text) || /^-(?![0-9.])/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (cells: readonly unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** The section as CSV: a header line, then a line per row. */
export async function* csvOf(section: Section): AsyncIterable<Buffer> {
  yield Buffer.from(line(section.columns));
  for await (const rows of section.batches())
    yield Buffer.from(rows.map((row) => line(section.columns.map((c) => row[c]))).join(''));
}

/**
 * The section as one JSON array, written a batch at a time, so it is never built whole in memory. Amounts stay the
 * exact decimal strings the API answers (never numbers), times ISO 8601 in UTC.
 */
export async function* jsonOf(section: Section): AsyncIterable<Buffer> {
  let first = true;
  yield Buffer.from('[');
  for await (const rows of section.batches())
    for (const row of rows) {
      yield Buffer.from(`${first ? '\n' : ',\n'}${JSON.stringify(row)}`);
      first = false;
    }
  yield Buffer.from(first ? ']\n' : '\n]\n');
}

/**
 * A ZIP archive of `files`, streamed: each file's content is read only when the archive reaches it and only as
 * fast as the reader takes the archive (yazl pulls from one entry at a time; deflate runs off the event loop),
 * so a long history costs neither memory nor a blocked process. `done` is told the bytes sent once the reader has
 * taken all of them, `failed` when a file could not be produced (the stream then ends in an error, so the reader
 * never takes a truncated archive for a whole one), `aborted` when the reader went away first.
 */
export function zipStream(
  files: readonly ArchiveFile[],
  mtime: Date,
  events: { done(bytes: number): void; failed(err: unknown): void; aborted(): void },
): Readable {
  const zip = new yazl.ZipFile();
  let bytes = 0;
  let current: Readable | undefined;
  let settled = false;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  const settle = (outcome: () => void) => {
    if (settled) return;
    settled = true;
    outcome();
  };
  const fail = (err: unknown) => {
    settle(() => events.failed(err));
    current?.destroy();
    counted.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  for (const file of files)
    zip.addReadStreamLazy(file.path, { mtime, compress: true }, (callback) => {
      current = Readable.from(file.content(), { objectMode: false });
      current.on('error', fail);
      callback(null, current);
    });
  zip.on('error', fail);
  zip.outputStream.on('error', fail);
  zip.outputStream.pipe(counted);
  counted.on('end', () => settle(() => events.done(bytes)));
  // The reader closed the connection before the end: stop reading the database for it.
  counted.on('close', () => {
    if (settled) return;
    settle(() => events.aborted());
    current?.destroy();
    zip.outputStream.unpipe(counted);
  });
  zip.end();
  return counted;
}
