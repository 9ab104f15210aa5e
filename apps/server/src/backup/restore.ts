import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { auditLedger } from '../core/audit.ts';
import { journalFailures, verifyJournal } from '../core/journal/verify.ts';
import { createPool } from '../db/pool.ts';
import { archivedSince, WAL_FOLDER } from './archive.ts';
import { PASSWORD_FILE, PGDATA } from './base-backup.ts';
import { DUMP_FILE, restoreDump } from './dump.ts';
import {
  BackupError,
  checkSizes,
  checksumError,
  copyHashed,
  hashFile,
  type Manifest,
  readManifest,
} from './manifest.ts';
import { startRecoveryServer } from './recovery-server.ts';
import { parseTimestamp } from './timestamps.ts';
import { chownForPostgres, embeddedPostgresBinary, postgresIds, toolMajor } from './tools.ts';
import { type ArchiveDamage, acceptLoss, checkArchive, damageOf, describeDamage } from './wal-check.ts';

/** Where to restore: a fresh DATA_DIR for a base backup, or an empty external database for a dump. */
export interface RestoreTarget {
  dataDir: string;
  databaseUrl: string | undefined;
}

/** What a restore did: the moment it reached and the ledger audit of the restored database. */
export interface RestoreResult {
  manifest: Manifest;
  /** `backup` (the backup's own moment), `latest` (the end of the WAL archive) or the `--to` time given. */
  reached: string;
  /** The last transaction replayed, as the server reported it (point-in-time restores). */
  lastTransaction?: string;
  /** Where the WAL archive was damaged, when the operator accepted losing what lies beyond it. */
  lossAccepted?: ArchiveDamage;
  auditFailures: string[];
}

/** Options of {@link restoreBackup}. */
export interface RestoreOptions {
  /**
   * Restore up to the last good moment of a damaged WAL archive, accepting the loss of what was committed after
   * it, provided that moment is not before this time. Without it a damaged archive refuses the restore.
   */
  acceptLossAfter?: string;
}

/**
 * Restores the backup folder `backup` after checking every file against its manifest. A base backup goes
 * into a fresh DATA_DIR (never over an existing or live one), recovered with the embedded server to the
 * backup's moment, to `to` (a timestamp, using the WAL archive next to the backup) or to `latest`; a dump goes
 * into the empty database of DATABASE_URL. The result is audited. Nothing is changed when any check fails.
 * @throws BackupError with a one-line reason.
 */
export async function restoreBackup(
  backup: string,
  target: RestoreTarget,
  requestedTo: string | undefined,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const to = options.acceptLossAfter !== undefined ? (requestedTo ?? 'latest') : requestedTo;
  if (options.acceptLossAfter !== undefined && parseTimestamp(options.acceptLossAfter) === undefined) {
    throw new BackupError(`--accept-loss-after "${options.acceptLossAfter}" is not a timestamp`);
  }
  const manifest = await readManifest(backup);
  if (manifest.kind === 'dump') return restoreDumpBackup(backup, manifest, target, to);
  if (target.databaseUrl) {
    throw new BackupError(
      `${manifest.name} is a physical backup of the embedded database: unset DATABASE_URL to restore it into a fresh DATA_DIR (see the README for an external server)`,
    );
  }
  const dataDir = target.dataDir;
  if (/["%\n]/.test(dataDir)) throw new BackupError('DATA_DIR must not contain double quotes, % or newlines');
  await assertFresh(dataDir);
  const wal = manifest.wal;
  if (!wal) throw new BackupError(`backup ${manifest.name} is damaged: its manifest has no WAL range`);
  const archive = path.join(path.dirname(backup), WAL_FOLDER);
  if (to !== undefined) checkTarget(to, manifest, archive);
  const major = await toolMajor(await embeddedPostgresBinary());
  if (Number.parseInt(manifest.postgres, 10) !== major) {
    throw new BackupError(
      `backup ${manifest.name} is of PostgreSQL ${manifest.postgres}; the embedded server is ${major}`,
    );
  }
  await checkSizes(backup, manifest);
  // Every archived file the recovery would read, against its checksum: it stops before the first bad one.
  const archived = to === undefined ? undefined : await checkArchive(archive, wal.startFile);

  const stage = `${dataDir}.restoring`;
  assertReachable(path.dirname(dataDir));
  if (existsSync(stage)) {
    throw new BackupError(`${stage} exists: an earlier restore was interrupted; delete it and try again`);
  }
  const running: Interruption = {};
  const release = onInterrupt(running);
  try {
    await copyVerified(backup, stage, manifest, running);
    const files = archived?.usable ?? (await historyFiles(archive, wal.startFile));
    const settings = await recoverySettings(stage, archive, files, to);
    chownForPostgres(path.join(stage, 'pg'));
    chownForPostgres(path.join(stage, 'restore-wal'));
    const password = (await readFile(path.join(stage, '.pg-password'), 'utf8')).trim();
    checkInterrupted(running);
    const recovered = await recoverAndAudit(path.join(stage, 'pg'), settings, password, running).catch(
      async (err: unknown) => {
        // A --to time past the damage: the WAL that would reach it cannot be trusted.
        if (
          archived?.problem &&
          err instanceof BackupError &&
          err.message.includes('WAL archive ends before')
        )
          throw new BackupError(
            `${describeDamage(await damageOf(archive, archived))}; the --to time lies beyond it. Nothing was restored; restore --to latest to see the last good moment`,
          );
        throw err;
      },
    );
    checkInterrupted(running);
    const lossAccepted =
      archived?.problem && to === 'latest'
        ? acceptLoss(
            { ...(await damageOf(archive, archived)), lastGood: recovered.lastTransaction },
            options.acceptLossAfter,
          )
        : undefined;
    await markHistoryForArchive(path.join(stage, 'pg'));
    await rm(path.join(stage, 'restore-wal'), { recursive: true, force: true });
    if (existsSync(dataDir)) await rmdir(dataDir);
    await rename(stage, dataDir);
    return {
      manifest,
      reached: to ?? 'backup',
      ...(recovered.lastTransaction ? { lastTransaction: recovered.lastTransaction } : {}),
      ...(lossAccepted ? { lossAccepted } : {}),
      auditFailures: recovered.auditFailures,
    };
  } catch (err) {
    await running.stop?.();
    await rm(stage, { recursive: true, force: true });
    checkInterrupted(running);
    throw err;
  } finally {
    release();
  }
}

/** The timeline histories in the archive (all a restore to the backup's own moment reads of it). */
async function historyFiles(archive: string, startFile: string): Promise<string[]> {
  if (!existsSync(archive)) return [];
  return (await archivedSince(archive, startFile)).filter((name) => name.endsWith('.history'));
}

/** The recovery server while it runs, and the signal that interrupted the restore, if one did. */
interface Interruption {
  stop?: () => Promise<void>;
  signal?: NodeJS.Signals;
}

/**
 * While a restore runs, SIGINT or SIGTERM stops its recovery server (which would otherwise outlive this process)
 * and makes the restore give up at its next step, removing the staging folder: an interrupted restore changes
 * nothing either. A second signal ends the process at once.
 * @returns how to remove the handlers.
 */
function onInterrupt(state: Interruption): () => void {
  const handler = (signal: NodeJS.Signals) => {
    state.signal = signal;
    void state.stop?.();
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** @throws BackupError when the restore was interrupted. */
function checkInterrupted(state: Interruption): void {
  if (state.signal) throw new BackupError(`interrupted by ${state.signal}: nothing was changed`);
}

/** As root the recovery runs as `postgres`, which must be able to enter the folder DATA_DIR is made in. */
function assertReachable(parent: string): void {
  if (!postgresIds()) return;
  try {
    execFileSync('runuser', ['-u', 'postgres', '--', 'test', '-x', parent], { stdio: 'ignore' });
  } catch {
    throw new BackupError(
      `the postgres user cannot reach ${parent}; make it and every parent folder searchable (chmod o+x)`,
    );
  }
}

/** DATA_DIR must not exist, or be an empty folder: a restore never replaces data, live or not. */
async function assertFresh(dataDir: string): Promise<void> {
  if (!existsSync(dataDir)) return;
  const entries = await readdir(dataDir).catch(() => {
    throw new BackupError(`DATA_DIR ${dataDir} is not a readable folder`);
  });
  if (entries.length > 0) {
    throw new BackupError(
      `DATA_DIR ${dataDir} is not empty; restore only into a fresh DATA_DIR (a new folder), never over existing data`,
    );
  }
}

/** `--to`: `latest`, or a timestamp after the backup started, with a WAL archive next to the backup. */
function checkTarget(to: string, manifest: Manifest, archive: string): void {
  if (!existsSync(archive)) {
    throw new BackupError(
      `--to needs the WAL archive next to the backup (${archive}); without it, restore the backup's own moment (no --to)`,
    );
  }
  if (to === 'latest') return;
  const at = parseTimestamp(to);
  if (at === undefined) {
    throw new BackupError(`--to "${to}" is not a timestamp (e.g. "2026-11-23 20:00:00+00") or latest`);
  }
  if (at < Date.parse(manifest.startedAt)) {
    throw new BackupError(
      `--to "${to}" is before backup ${manifest.name} was taken (${manifest.startedAt}); restore an older backup`,
    );
  }
}

/** Copies every file of the backup into the staging folder, checking its checksum; lays out DATA_DIR. */
async function copyVerified(
  backup: string,
  stage: string,
  manifest: Manifest,
  interruption: Interruption,
): Promise<void> {
  const place = (rel: string) =>
    rel === PASSWORD_FILE
      ? path.join(stage, '.pg-password')
      : path.join(stage, 'pg', path.relative(PGDATA, rel));
  await mkdir(stage, { mode: 0o755 });
  for (const dir of manifest.dirs) await mkdir(place(dir), { recursive: true, mode: 0o700 });
  for (const file of manifest.files) {
    checkInterrupted(interruption);
    const copied = await copyHashed(path.join(backup, file.path), place(file.path));
    if (!copied || copied.sha256 !== file.sha256 || copied.size !== file.size)
      throw checksumError(manifest, file);
  }
  // PostgreSQL refuses a cluster folder that others can read.
  await chmod(path.join(stage, 'pg'), 0o700);
}

/**
 * The server settings of the recovery, and the archived WAL it may read (copied, so postgres can read it).
 * Always an archive recovery, which ends on a new timeline: the restored server's WAL then never takes the
 * names of segments the original server archived after the backup. Its timeline ID is above every timeline
 * history in the archive. The backup's own timeline is followed (`current`), so a restore drill that archived
 * into the same BACKUP_DIR does not lead a later restore astray; only `--to latest` follows the newest one.
 */
async function recoverySettings(
  stage: string,
  archive: string,
  files: string[],
  to: string | undefined,
): Promise<string[]> {
  const walCopy = path.join(stage, 'restore-wal');
  await mkdir(walCopy, { mode: 0o700 });
  for (const name of files) await copyFile(path.join(archive, name), path.join(walCopy, name));
  await writeFile(path.join(stage, 'pg', 'recovery.signal'), '');
  // The backup's own WAL is in its pg_wal, where recovery looks when restore_command finds nothing.
  const common = ['-c', `restore_command=cp "${walCopy}/%f" "%p"`];
  if (to === 'latest') return [...common, '-c', 'recovery_target_timeline=latest'];
  return [
    ...common,
    '-c',
    'recovery_target_timeline=current',
    ...(to === undefined ? ['-c', 'recovery_target=immediate'] : ['-c', `recovery_target_time=${to}`]),
    '-c',
    'recovery_target_action=promote',
  ];
}

/**
 * The recovery ran without archiving, so the new timeline's history file is not archived yet; marked ready,
 * the app archives it as soon as it runs with BACKUP_DIR, and the next restore from that archive picks a
 * timeline ID of its own instead of colliding with this one.
 */
async function markHistoryForArchive(clusterDir: string): Promise<void> {
  const status = path.join(clusterDir, 'pg_wal', 'archive_status');
  for (const name of await readdir(path.join(clusterDir, 'pg_wal'))) {
    if (!name.endsWith('.history') || existsSync(path.join(status, `${name}.done`))) continue;
    await writeFile(path.join(status, `${name}.ready`), '');
  }
  chownForPostgres(status);
}

/** Runs the recovery to its end, audits the result and shuts the server down cleanly. */
async function recoverAndAudit(
  clusterDir: string,
  settings: string[],
  password: string,
  running: Interruption,
): Promise<{ lastTransaction?: string; auditFailures: string[] }> {
  let server: Awaited<ReturnType<typeof startRecoveryServer>>;
  try {
    server = await startRecoveryServer(clusterDir, settings, running);
  } catch (err) {
    throw new BackupError(explainRecovery(err instanceof Error ? err.message : String(err)));
  }
  try {
    const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${server.port}/exchange`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ recovering: boolean }>(
        'select pg_is_in_recovery() as recovering',
      );
      if (rows[0]?.recovering) throw new BackupError('the restored server is still in recovery');
    } finally {
      await client.end();
    }
    const pool = createPool(url, 2);
    try {
      const failures = await auditLedger(pool);
      const last = /last completed transaction was at log time (.+)/.exec(server.log())?.[1]?.trim();
      return {
        ...(last ? { lastTransaction: last } : {}),
        auditFailures: [
          ...failures.map((f) => `${f.rule}: ${f.currency}${f.account ? ` ${f.account}` : ''}: ${f.detail}`),
          // The restored journal, replayed, must give the restored tables (as `core verify` checks a live one).
          ...journalFailures(await verifyJournal(pool)),
        ],
      };
    } finally {
      await pool.end();
    }
  } finally {
    await server.stop();
  }
}

/** The server's reason for stopping, in the operator's terms. */
function explainRecovery(message: string): string {
  if (message.includes('recovery ended before configured recovery target was reached')) {
    return 'the WAL archive ends before the --to time: nothing was committed after it yet, or its WAL is not archived yet (try --to latest)';
  }
  if (message.includes('before consistent recovery point')) {
    return 'the --to time is before the end of the backup; restore an older backup';
  }
  return message;
}

async function restoreDumpBackup(
  backup: string,
  manifest: Manifest,
  target: RestoreTarget,
  to: string | undefined,
): Promise<RestoreResult> {
  if (to !== undefined)
    throw new BackupError(
      `${manifest.name} is a pg_dump backup: it restores to its own moment only (no --to)`,
    );
  if (!target.databaseUrl) {
    throw new BackupError(
      `${manifest.name} is a pg_dump of an external database: set DATABASE_URL to a new, empty database`,
    );
  }
  await checkSizes(backup, manifest);
  for (const file of manifest.files) {
    if ((await hashFile(path.join(backup, file.path))) !== file.sha256) throw checksumError(manifest, file);
  }
  const pool = createPool(target.databaseUrl, 2);
  try {
    await restoreDump(pool, target.databaseUrl, path.join(backup, DUMP_FILE));
    const failures = await auditLedger(pool);
    return {
      manifest,
      reached: 'backup',
      auditFailures: [
        ...failures.map((f) => `${f.rule}: ${f.currency}: ${f.detail}`),
        ...journalFailures(await verifyJournal(pool)),
      ],
    };
  } finally {
    await pool.end();
  }
}
