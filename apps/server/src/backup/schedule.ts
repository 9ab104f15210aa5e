import type { BackupConfig } from '../config.ts';
import { LOCKS, withTryLock } from '../db/locks.ts';
import { createPool } from '../db/pool.ts';
import { archiveProblem } from './archive.ts';
import { humanSize, listBackups, pruneBackups } from './catalogue.ts';
import { type BackupSource, takeBackup } from './take.ts';

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

const HOUR_MS = 3_600_000;
/** The first backup waits this long after the start, so it does not compete with the start itself. */
const FIRST_DELAY_MS = 10_000;
/** A failed backup is tried again after this long (or the interval, if shorter). */
const RETRY_MS = 15 * 60_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Backups by the app itself: one every BACKUP_INTERVAL_HOURS into BACKUP_DIR, counted from the newest backup
 * there (a restarted app does not back up again too soon, and one that never backed up does so shortly after
 * its start), each followed by the retention of BACKUP_KEEP. Safe in several processes of one deployment: a
 * backup runs under an advisory lock, and a process that finds a recent enough backup in BACKUP_DIR waits for
 * the next one instead.
 * @returns how to stop it (waiting for a backup in progress), or `undefined` when backups are not scheduled.
 */
export function scheduleBackups(
  config: BackupConfig,
  source: BackupSource,
  log: Logger,
): { stop(): Promise<void> } | undefined {
  const dir = config.dir;
  if (!dir || config.intervalHours <= 0) return undefined;
  const intervalMs = config.intervalHours * HOUR_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const plan = (ms: number): void => {
    if (stopped) return;
    // Node's timers hold at most ~24.8 days.
    if (ms > MAX_TIMER_MS) {
      timer = setTimeout(() => plan(ms - MAX_TIMER_MS), MAX_TIMER_MS);
      timer.unref();
      return;
    }
    timer = setTimeout(() => {
      running = once().finally(() => {
        running = undefined;
      });
    }, ms);
    timer.unref();
  };

  const once = async () => {
    try {
      const wait = await untilDue();
      if (wait > 0) return plan(wait);
      // A pool of its own: the backup's sessions never take the connections the app's requests and core need.
      const pool = createPool(source.url, 3);
      const taken = await withTryLock(pool, LOCKS.backup, () => takeBackup({ ...source, pool }, dir)).finally(
        () => pool.end(),
      );
      // Another process is backing up: look again when it should be done.
      if (!taken.locked) return plan(Math.min(RETRY_MS, intervalMs));
      const { manifest } = taken.value;
      const pruned = await pruneBackups(dir, config.keep);
      log.info(
        `backup ${manifest.name}: ${humanSize(manifest.bytes)} in ${dir}, audit ${manifest.audit.passed ? 'passed' : 'FAILED'}${pruned.length > 0 ? `; deleted ${pruned.join(', ')}` : ''}`,
      );
      if (!manifest.audit.passed) log.warn(`backup ${manifest.name}: ${manifest.audit.failures.join('; ')}`);
      const archiving = await archiveProblem(source.pool);
      if (archiving) log.warn(archiving);
      plan(intervalMs);
    } catch (err) {
      const retry = Math.min(RETRY_MS, intervalMs);
      log.warn(
        `scheduled backup failed: ${err instanceof Error ? err.message : String(err)}; retrying in ${Math.round(retry / 60_000)} min`,
      );
      plan(retry);
    }
  };

  /** Milliseconds until the next backup is due, counted from the newest one in `dir` (a small slack allowed). */
  const untilDue = async (): Promise<number> => {
    const newest = (await listBackups(dir)).filter((b) => b.manifest).pop()?.manifest;
    const due = newest ? Date.parse(newest.finishedAt) + intervalMs - Date.now() : 0;
    return due > intervalMs * 0.05 ? due : 0;
  };

  void untilDue().then(
    (due) => plan(Math.max(FIRST_DELAY_MS, due)),
    () => plan(FIRST_DELAY_MS),
  );

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
