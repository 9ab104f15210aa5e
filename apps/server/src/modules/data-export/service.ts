import type { Readable } from 'node:stream';
import { type Clock, dateOf } from '../../clock.ts';
import { LOCK_FAMILIES, lockForTransaction } from '../../db/locks.ts';
import { withTransaction } from '../../db/pool.ts';
import type { RequestOrigin } from '../identity/registration.ts';
import { recordActivity, type UserRecord, userEntity } from '../identity/users-repository.ts';
import { type ArchiveFile, csvOf, jsonOf, type Section, zipStream } from './files.ts';
import { readmeText } from './readme.ts';
import { failExport, finishExport, insertExport, nextExportAt } from './repository.ts';
import { type SectionDeps, tableSections } from './sections.ts';

/** What the export needs: the sections' sources, the log, how long mail records are kept (for the README). */
export interface DataExportDeps extends SectionDeps {
  log: { warn(obj: unknown, msg?: string): void };
  mailRetentionDays: number;
  /** The app's clock: the day's allowance and the archive's date are read on it. */
  clock: Clock;
  /** Resolves once every command answered so far is in the tables (orders, trades, balances). */
  settled(): Promise<void>;
}

/** An export under way: the archive's file name and its bytes, streamed. */
export interface StartedExport {
  filename: string;
  stream: Readable;
}

/**
 * "Your data" (issue 31, part 5; GDPR art. 15 and 20): a ZIP of everything the exchange keeps about the user that
 * is theirs to have, machine-readable, once a day.
 */
export class DataExport {
  constructor(private readonly deps: DataExportDeps) {}

  /**
   * Starts the user's export, or says when the next one is possible (`{ nextAt }`, when one was taken in the last
   * 24 hours). The daily check and the record of the export (the table and the security log) are one transaction
   * under the user's lock, so two requests at once give one export. The archive is then written as it is read.
   */
  async start(user: UserRecord, origin: RequestOrigin): Promise<StartedExport | { nextAt: Date }> {
    const asked = dateOf(this.deps.clock);
    const claim = await withTransaction(
      this.deps.db,
      async (tx): Promise<{ nextAt: Date } | { id: number }> => {
        await lockForTransaction(tx, [LOCK_FAMILIES.dataExport, Number(user.id)]);
        const nextAt = await nextExportAt(tx, user.id, asked);
        if (nextAt) return { nextAt };
        const id = await insertExport(tx, user.id, asked);
        await recordActivity(tx, {
          userId: user.id,
          action: 'data_export',
          result: 'succeed',
          topic: 'data_export',
          ip: origin.ip,
          userAgent: origin.userAgent,
          data: { export_id: id },
        });
        return { id };
      },
    );
    if ('nextAt' in claim) return claim;
    // The file includes every order and trade the user was answered before asking for it.
    await this.deps.settled();
    const at = dateOf(this.deps.clock);
    const stream = zipStream(await this.files(user, at), at, {
      done: (bytes) => this.settle(finishExport(this.deps.db, claim.id, bytes)),
      failed: (err) => {
        this.deps.log.warn({ err: String(err), exportId: claim.id }, 'data export failed');
        this.settle(this.recordFailure(user, origin, claim.id));
      },
      // The reader went away: the export counts (it was the reader's choice), its size is unknown.
      aborted: () => {},
    });
    return { filename: `exchange-data-${user.uid}-${at.toISOString().slice(0, 10)}.zip`, stream };
  }

  /** The archive's files: the README, the profile, then each table as CSV and JSON. */
  private async files(user: UserRecord, at: Date): Promise<ArchiveFile[]> {
    const entity = await userEntity(this.deps.db, user);
    const { labels, phones, profiles, ...account } = entity;
    const text = (value: string): ArchiveFile['content'] =>
      async function* () {
        yield Buffer.from(value);
      };
    const fixed = (name: string, columns: string[], rows: unknown[]): Section => ({
      name,
      columns,
      async *batches() {
        yield rows as Record<string, unknown>[];
      },
    });
    const csvOnly = [
      fixed('account', Object.keys(account), [account]),
      fixed('labels', ['key', 'value', 'scope', 'created_at', 'updated_at'], labels),
      fixed('phones', ['country', 'number', 'validated_at'], phones),
      fixed(
        'profiles',
        [
          'first_name',
          'last_name',
          'gender',
          'dob',
          'address',
          'postcode',
          'city',
          'country',
          'state',
          'created_at',
          'updated_at',
        ],
        profiles,
      ),
    ];
    const today = at.toISOString().slice(0, 10);
    return [
      {
        path: 'README.txt',
        content: text(readmeText(user.uid, at, this.deps.mailRetentionDays)),
      },
      { path: 'profile.json', content: text(`${JSON.stringify(entity, null, 2)}\n`) },
      ...csvOnly.map((s) => ({ path: `${s.name}.csv`, content: () => csvOf(s) })),
      ...tableSections(this.deps, user.id, today).flatMap((s) => [
        { path: `${s.name}.csv`, content: () => csvOf(s) },
        { path: `${s.name}.json`, content: () => jsonOf(s) },
      ]),
    ];
  }

  /** The export failed on our side: it does not count, and the security log says so. */
  private recordFailure(user: UserRecord, origin: RequestOrigin, id: number): Promise<void> {
    // One transaction: whoever sees the export failed also sees the log entry that says so.
    return withTransaction(this.deps.db, async (tx) => {
      await failExport(tx, id);
      await recordActivity(tx, {
        userId: user.id,
        action: 'data_export',
        result: 'failed',
        topic: 'data_export',
        ip: origin.ip,
        userAgent: origin.userAgent,
        data: { export_id: id, reason: 'server' },
      });
    });
  }

  /** Records an outcome after the answer has gone: a failure here is logged, never thrown at nobody. */
  private settle(work: Promise<void>): void {
    work.catch((err) => this.deps.log.warn({ err: String(err) }, 'data export record failed'));
  }
}
