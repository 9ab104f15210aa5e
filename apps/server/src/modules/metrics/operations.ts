import { statfs } from 'node:fs/promises';
import type pg from 'pg';
import { Counter, Gauge, type Registry } from 'prom-client';
import { listBackups } from '../../backup/catalogue.ts';
import { embeddedRestarts } from '../../db/embedded.ts';
import { pingDatabase } from '../../db/pool.ts';

/** How long a scrape waits for a value read from the database before it leaves the series out. */
const DATABASE_READ_LIMIT_MS = 1_000;

/**
 * Reads for gauges that must not fail a scrape: `read` resolves with undefined when the database fails, or does
 * not answer within DATABASE_READ_LIMIT_MS (the series is then absent from this scrape, not an error). A read
 * under way is shared, not started again: by the gauges of one scrape, and by the next scrape while the database
 * is stalled, so a stalled database does not collect queries.
 */
function boundedRead<T>(query: () => Promise<T>): () => Promise<T | undefined> {
  let running: Promise<T | undefined> | undefined;
  return () => {
    running ??= query()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
    const read = running;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), DATABASE_READ_LIMIT_MS);
    });
    return Promise.race([read, limit]).finally(() => clearTimeout(timer));
  };
}

/**
 * A gauge of one value read at scrape time: set when `read` gives one, else left at its last value (stale), so a
 * database that does not answer never fails the scrape.
 */
function readGauge(
  registry: Registry,
  name: string,
  help: string,
  read: () => Promise<number | undefined>,
): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const value = await read();
      if (value !== undefined) this.set(value);
    },
  });
}

/** What the operations metrics read: the database, the data folder, the disk guard. */
export interface OperationsSources {
  db: pg.Pool;
  /** The data folder, whose free space is reported (absent: not reported). */
  dataDir?: string;
  /** Whether new orders and withdrawals are refused for a nearly full disk. */
  disk?: { low: boolean };
  /** BACKUP_DIR, whose newest backup is reported (absent: no scheduled backups). */
  backupDir?: string;
}

/**
 * The series an operator watches in an incident: whether the database answers, the disk, provider webhooks and
 * mail waiting, withdrawals by state, WAL archiving and the newest backup. Values read from the database are
 * bounded (see boundedRead): a scrape during an outage does not fail; a series with labels is left out of it, one
 * without keeps its last value (stale), and `exchange_database_up` says why.
 */
export function addOperationsMetrics(registry: Registry, sources: OperationsSources): void {
  const { db } = sources;
  const databaseAnswers = boundedRead(() => pingDatabase(db).then(() => true));
  new Gauge({
    name: 'exchange_database_up',
    help: `Whether the database answered a query within ${DATABASE_READ_LIMIT_MS} ms at this scrape`,
    registers: [registry],
    async collect() {
      this.set((await databaseAnswers()) ? 1 : 0);
    },
  });
  const disk = sources.disk;
  if (disk)
    new Gauge({
      name: 'exchange_disk_low',
      help: 'Whether new orders and withdrawals are refused because DATA_DIR has less free space than DISK_MIN_FREE_MB',
      registers: [registry],
      collect() {
        this.set(disk.low ? 1 : 0);
      },
    });
  if (sources.dataDir) {
    const dataDir = sources.dataDir;
    readGauge(
      registry,
      'exchange_disk_free_bytes',
      'Free space for this process on the data folder (DATA_DIR) file system',
      async () => {
        const stats = await statfs(dataDir).catch(() => undefined);
        return stats ? stats.bavail * stats.bsize : undefined;
      },
    );
  }

  // Read from the database: a scrape during an outage leaves these out (exchange_database_up says why).
  // Our own intake: whether a provider's deliveries fail is the provider's to report (its dashboard, or the
  // simulator's own state), not something this exchange can read.
  const unmatchedWebhooks = boundedRead(() =>
    db.query<{ provider: string; n: number }>(
      `select 'kyc' as provider, count(*)::int as n from kyc_webhook_events
         where outcome = 'unknown_applicant' and received_at > now() - interval '1 day'
       union all select 'card', count(*)::int from card_webhook_events
         where outcome = 'unknown' and received_at > now() - interval '1 day'`,
    ),
  );
  const mailQueue = boundedRead(() =>
    db.query<{ queued: number; dead: number }>(
      `select count(*) filter (where queued)::int as queued,
              count(*) filter (where dead_at > now() - interval '1 day')::int as dead
         from mail_outbox where queued or dead_at is not null`,
    ),
  );
  const waitingWithdrawals = boundedRead(() =>
    db.query<{ state: string; n: number }>(
      `select state, count(*)::int as n from withdrawals
       where state in ('prepared', 'under_review', 'accepted', 'processing', 'confirming', 'errored') group by state`,
    ),
  );
  new Gauge({
    name: 'exchange_webhooks_unmatched',
    help: 'Provider webhooks received in the last day about an applicant or a card this exchange does not know',
    labelNames: ['provider'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await unmatchedWebhooks();
      for (const r of rows?.rows ?? []) this.set({ provider: r.provider }, r.n);
    },
  });
  readGauge(
    registry,
    'exchange_mail_queued',
    'Mail queued for the SMTP sender',
    async () => (await mailQueue())?.rows[0]?.queued,
  );
  readGauge(
    registry,
    'exchange_mail_dead_letters',
    'Mail the SMTP sender gave up on in the last day (dead letters)',
    async () => (await mailQueue())?.rows[0]?.dead,
  );
  new Gauge({
    name: 'exchange_withdrawals_waiting',
    help: 'Withdrawals not yet final, by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await waitingWithdrawals();
      for (const r of rows?.rows ?? []) this.set({ state: r.state }, r.n);
    },
  });
  const archiver = boundedRead(() =>
    db.query<{ on: boolean; failures: string; since: string | null; failing: boolean }>(
      `select current_setting('archive_mode') <> 'off' as on, failed_count::text as failures,
              extract(epoch from now() - last_archived_time)::text as since,
              coalesce(last_failed_time > coalesce(last_archived_time, '-infinity'), false) as failing
         from pg_stat_archiver`,
    ),
  );
  const archive = async () => {
    const row = (await archiver())?.rows[0];
    return row?.on ? row : undefined;
  };
  readGauge(
    registry,
    'exchange_wal_archive_failing',
    'Whether the last attempt to archive a WAL segment failed (point-in-time restores stop before it)',
    async () => {
      const row = await archive();
      return row ? Number(row.failing) : undefined;
    },
  );
  readGauge(
    registry,
    'exchange_wal_archive_failures',
    'WAL segments the server failed to archive since it started (PostgreSQL counts)',
    async () => {
      const row = await archive();
      return row ? Number(row.failures) : undefined;
    },
  );
  readGauge(
    registry,
    'exchange_wal_archive_age_seconds',
    'Seconds since a WAL segment was last archived (an idle server archives nothing)',
    async () => {
      const row = await archive();
      return row?.since ? Number(row.since) : undefined;
    },
  );
  const backupDir = sources.backupDir;
  if (backupDir) {
    const newest = async () =>
      (await listBackups(backupDir).catch(() => [])).filter((b) => b.manifest?.audit.passed).pop()?.manifest;
    readGauge(
      registry,
      'exchange_backup_last_success_timestamp_seconds',
      'When the newest complete backup whose ledger audit passed finished (Unix time)',
      async () => {
        const manifest = await newest();
        return manifest ? Date.parse(manifest.finishedAt) / 1000 : undefined;
      },
    );
  }
  new Counter({
    name: 'exchange_embedded_postgres_restarts_total',
    help: 'Times this process started its embedded PostgreSQL again after it died',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(embeddedRestarts.count);
    },
  });
}
