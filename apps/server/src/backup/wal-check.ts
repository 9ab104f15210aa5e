import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { archivedSince, CHECKSUM_SUFFIX } from './archive.ts';
import { BackupError, hashFile } from './manifest.ts';
import { parseTimestamp } from './timestamps.ts';
import { countCommits } from './wal-commits.ts';

/** A WAL segment file name: timeline, log and segment, 8 hex digits each. */
const SEGMENT_NAME = /^[0-9A-F]{24}$/;
/** Segments per log id with PostgreSQL's default 16 MiB segments (what the embedded server uses). */
const SEGMENTS_PER_LOG = 0x100;

/** What a restore may use of a WAL archive, and where it is damaged. */
export interface ArchiveCheck {
  /** The files a recovery may read: every timeline history, and the segments before the first problem. */
  usable: string[];
  /** The first segment, in WAL order, that is damaged or missing, and why. */
  problem?: { segment: string; reason: string };
  /** The intact segments after the problem: WAL that exists but cannot be replayed. */
  beyond: string[];
}

/** A segment's place in the WAL, whatever its timeline. */
function position(name: string): number {
  return Number.parseInt(name.slice(8, 16), 16) * SEGMENTS_PER_LOG + Number.parseInt(name.slice(16, 24), 16);
}

function segmentName(timeline: string, at: number): string {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');
  return `${timeline}${hex(Math.floor(at / SEGMENTS_PER_LOG))}${hex(at % SEGMENTS_PER_LOG)}`;
}

/** Why `file` (in `dir`) cannot be trusted, or undefined when it matches the checksum written as it was archived. */
export async function checksumProblem(dir: string, file: string): Promise<string | undefined> {
  const sum = path.join(dir, `${file}${CHECKSUM_SUFFIX}`);
  if (!existsSync(sum))
    return 'has no checksum (archived before checksums were kept, or its checksum is lost)';
  const expected = (await readFile(sum, 'utf8')).trim();
  return (await hashFile(path.join(dir, file))) === expected ? undefined : 'does not match its checksum';
}

/**
 * Checks the archived WAL a point-in-time restore of a backup starting at `startFile` would read: every file
 * against the checksum written when it was archived, and the segments for gaps. A recovery must stop before the
 * first damaged or missing segment: PostgreSQL itself takes a damaged record for the end of the WAL and carries
 * on silently, so without this a restore "to the end of the archive" could quietly drop everything after it.
 * @throws BackupError when a timeline history file is damaged (which timeline to follow would be a guess).
 */
export async function checkArchive(archiveDir: string, startFile: string): Promise<ArchiveCheck> {
  const files = await archivedSince(archiveDir, startFile);
  const history = files.filter((f) => !SEGMENT_NAME.test(f));
  for (const file of history) {
    const problem = await checksumProblem(archiveDir, file);
    if (problem && file.endsWith('.history')) {
      throw new BackupError(`the WAL archive is damaged: timeline history ${file} ${problem}`);
    }
  }
  const segments = files.filter((f) => SEGMENT_NAME.test(f)).sort((a, b) => position(a) - position(b));
  let problem: ArchiveCheck['problem'];
  let cut = Number.POSITIVE_INFINITY;
  // A gap: a position after the backup's first segment that no timeline has.
  const present = new Set(segments.map(position));
  const first = position(startFile);
  const last = Math.max(first, ...present);
  for (let at = first; at <= last; at++) {
    if (!present.has(at)) {
      problem = { segment: segmentName(startFile.slice(0, 8), at), reason: 'is missing from the archive' };
      cut = at;
      break;
    }
  }
  for (const segment of segments) {
    if (position(segment) >= cut) break;
    const reason = await checksumProblem(archiveDir, segment);
    if (reason) {
      problem = { segment, reason };
      cut = position(segment);
      break;
    }
  }
  return {
    usable: [...history, ...segments.filter((s) => position(s) < cut)],
    ...(problem ? { problem } : {}),
    beyond: segments.filter((s) => position(s) > cut),
  };
}

/** A damaged WAL archive as a restore found it. */
export interface ArchiveDamage {
  segment: string;
  reason: string;
  /** The last transaction replayed before the damage (the server's own words), if any was. */
  lastGood?: string;
  /** Commits counted in the intact segments after the damaged one (those in it cannot be counted). */
  commitsBeyond: number;
}

/** The damage of a checked archive, with the commits counted in the intact segments after it. */
export async function damageOf(archive: string, check: ArchiveCheck): Promise<ArchiveDamage> {
  let commitsBeyond = 0;
  for (const segment of check.beyond)
    commitsBeyond += await countCommits(path.join(archive, segment), segment);
  const problem = check.problem ?? { segment: '?', reason: 'is damaged' };
  return { segment: problem.segment, reason: problem.reason, commitsBeyond };
}

/** The damage in the operator's words. */
export function describeDamage(damage: ArchiveDamage): string {
  return `the WAL archive is damaged: segment ${damage.segment} ${damage.reason}; at least ${damage.commitsBeyond} committed transaction(s) lie beyond it (counted in the intact segments after it; those in ${damage.segment} itself cannot be counted)`;
}

/**
 * A restore to the end of a damaged archive: refused, naming the last good moment, unless the operator accepted
 * losing what was committed after a time that is not after that moment.
 * @throws BackupError when the loss was not accepted.
 */
export function acceptLoss(damage: ArchiveDamage, acceptLossAfter: string | undefined): ArchiveDamage {
  const lastGood = damage.lastGood ? parseTimestamp(damage.lastGood) : undefined;
  const accepted = acceptLossAfter === undefined ? undefined : parseTimestamp(acceptLossAfter);
  if (accepted !== undefined && lastGood !== undefined && lastGood >= accepted) return damage;
  const moment = damage.lastGood
    ? `the last good moment is ${damage.lastGood}`
    : 'no transaction after the backup is readable';
  const advice = damage.lastGood
    ? `to restore up to it and lose what came after, add --accept-loss-after "${damage.lastGood}"`
    : "restore without --to, to the backup's own moment";
  throw new BackupError(`${describeDamage(damage)}; ${moment}. Nothing was restored; ${advice}`);
}
