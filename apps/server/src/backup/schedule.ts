import type { BackupConfig } from '../config.ts';
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
 * its start), each followed by the retention of BACKUP_KEEP.
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
      const { manifest } = await takeBackup(source, dir);
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

  void listBackups(dir).then(
    (listed) => {
      const newest = listed.filter((b) => b.manifest).pop()?.manifest;
      const due = newest ? Date.parse(newest.finishedAt) + intervalMs - Date.now() : 0;
      plan(Math.max(FIRST_DELAY_MS, due));
    },
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
