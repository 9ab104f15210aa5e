import { readFile } from 'node:fs/promises';

/**
 * Counts the transaction commits in one archived WAL segment, read with the layout PostgreSQL documents in
 * `access/xlog_internal.h` and `access/xlogrecord.h` (the embedded distribution ships no pg_waldump). A count, not a
 * replay: it tells an operator how much a damaged archive would lose, so it stops quietly where the segment stops
 * making sense (a page of another position, a record too short, the end of the WAL).
 */

const PAGE_MAGIC_BYTES = 2;
const SHORT_PAGE_HEADER = 24; // MAXALIGN(sizeof(XLogPageHeaderData))
const LONG_PAGE_HEADER = 40; // MAXALIGN(sizeof(XLogLongPageHeaderData))
const XLP_LONG_HEADER = 0x0002;
const XLP_FIRST_IS_CONTRECORD = 0x0001;
const RECORD_HEADER = 24; // sizeof(XLogRecord)
const RM_XLOG_ID = 0;
const RM_XACT_ID = 1;
const XLOG_SWITCH = 0x40;
const XLOG_XACT_OPMASK = 0x70;
const XLOG_XACT_COMMIT = 0x00;
const XLOG_XACT_COMMIT_PREPARED = 0x30;
const SEGMENT_BYTES = 16 * 1024 * 1024;

const maxAlign = (n: number) => Math.ceil(n / 8) * 8;

/** The LSN where segment `name` (timeline, log, segment; 16 MiB segments) begins. */
function segmentStart(name: string): bigint {
  const log = BigInt(Number.parseInt(name.slice(8, 16), 16));
  const seg = BigInt(Number.parseInt(name.slice(16, 24), 16));
  return (log << 32n) | (seg * BigInt(SEGMENT_BYTES));
}

/** The segment's record bytes, page headers taken out (their sizes are multiples of 8: alignment is kept). */
function recordStream(wal: Buffer, start: bigint): { stream: Buffer; continued: number } {
  const parts: Buffer[] = [];
  let continued = 0;
  let pageSize = 8192;
  for (let offset = 0; offset + SHORT_PAGE_HEADER <= wal.length; offset += pageSize) {
    if (wal.readUInt16LE(offset) === 0 && offset > 0) break; // an unwritten page
    const info = wal.readUInt16LE(offset + PAGE_MAGIC_BYTES);
    const address = wal.readBigUInt64LE(offset + 8);
    if (address !== start + BigInt(offset)) break; // a page left from an earlier use of the file
    const long = (info & XLP_LONG_HEADER) !== 0;
    if (long) pageSize = wal.readUInt32LE(offset + 32) || pageSize;
    if (offset === 0 && (info & XLP_FIRST_IS_CONTRECORD) !== 0) continued = wal.readUInt32LE(offset + 16);
    parts.push(wal.subarray(offset + (long ? LONG_PAGE_HEADER : SHORT_PAGE_HEADER), offset + pageSize));
  }
  return { stream: Buffer.concat(parts), continued };
}

/** How many transactions committed in the WAL segment file `file` (named as archived). */
export async function countCommits(file: string, name: string): Promise<number> {
  const wal = await readFile(file);
  const { stream, continued } = recordStream(wal, segmentStart(name));
  let commits = 0;
  // The first bytes finish a record that began in the previous segment.
  for (let at = maxAlign(continued); at + RECORD_HEADER <= stream.length; ) {
    const length = stream.readUInt32LE(at);
    if (length < RECORD_HEADER) break;
    const info = stream[at + 16] ?? 0;
    const manager = stream[at + 17];
    if (manager === RM_XLOG_ID && (info & 0xf0) === XLOG_SWITCH) break;
    const op = info & XLOG_XACT_OPMASK;
    if (manager === RM_XACT_ID && (op === XLOG_XACT_COMMIT || op === XLOG_XACT_COMMIT_PREPARED)) commits++;
    at += maxAlign(length);
  }
  return commits;
}
