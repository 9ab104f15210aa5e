import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { archiveCommand } from '../../src/backup/archive.ts';
import { backupName, humanSize, listBackups, pruneBackups } from '../../src/backup/catalogue.ts';
import { FORMAT, type Manifest, readManifest, writeManifest } from '../../src/backup/manifest.ts';
import { parseTimestamp } from '../../src/backup/timestamps.ts';
import { checksumProblem } from '../../src/backup/wal-check.ts';
import { loadConfig } from '../../src/config.ts';

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

function manifest(name: string, startFile: string): Manifest {
  return {
    format: FORMAT,
    name,
    kind: 'base',
    postgres: '17.10',
    startedAt: '2026-11-23T19:00:00.000Z',
    finishedAt: '2026-11-23T19:00:02.000Z',
    wal: { timeline: 1, startLsn: '0/0', stopLsn: '0/0', startFile, stopFile: startFile },
    audit: { passed: true, failures: [] },
    dirs: [],
    files: [],
    bytes: 3 * 1024 * 1024,
  };
}

describe('backups', () => {
  it('names backups by their UTC start and reads operator timestamps as PostgreSQL does', () => {
    expect(backupName(new Date('2026-11-23T20:00:05.123Z'))).toBe('backup-20261123T200005Z');
    expect(parseTimestamp('2026-11-23 20:00:00+00')).toBe(Date.parse('2026-11-23T20:00:00Z'));
    expect(parseTimestamp('2026-11-23T21:00:00+01:00')).toBe(Date.parse('2026-11-23T20:00:00Z'));
    // Without a zone the moment would depend on the machine's: refused.
    expect(parseTimestamp('2026-11-23 20:00:00')).toBeUndefined();
    expect(parseTimestamp('yesterday')).toBeUndefined();
    expect(humanSize(512)).toBe('512 B');
    expect(humanSize(71.1 * 1024 * 1024)).toBe('71.1 MiB');
  });

  it('archives each segment once with its checksum, and never over different content', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'backup-unit-'));
    const wal = path.join(dir, 'wal');
    await mkdir(wal);
    const segment = '000000010000000000000007';
    const source = path.join(dir, 'pg_wal-copy');
    // As PostgreSQL runs it: %p the server's file, %f its name.
    const archive = () =>
      spawnSync('sh', ['-c', archiveCommand(wal).replaceAll('%p', source).replaceAll('%f', segment)]).status;
    await writeFile(source, 'the WAL of segment 7');
    expect(archive()).toBe(0);
    expect(await readFile(path.join(wal, segment), 'utf8')).toBe('the WAL of segment 7');
    expect((await readFile(path.join(wal, `${segment}.sha256`), 'utf8')).trim()).toBe(
      createHash('sha256').update('the WAL of segment 7').digest('hex'),
    );
    expect(await checksumProblem(wal, segment)).toBeUndefined();
    // Offered again after a crash: done, even when its checksum had not been written.
    await rm(path.join(wal, `${segment}.sha256`));
    expect(archive()).toBe(0);
    expect(await checksumProblem(wal, segment)).toBeUndefined();
    // Other content under the same name: refused, the archived one kept.
    await writeFile(source, 'something else');
    expect(archive()).not.toBe(0);
    expect(await readFile(path.join(wal, segment), 'utf8')).toBe('the WAL of segment 7');
    expect((await readdir(wal)).sort()).toEqual([segment, `${segment}.sha256`]);
    // A byte changed in the archive afterwards is found.
    await writeFile(path.join(wal, segment), 'the WAL of segment 8');
    expect(await checksumProblem(wal, segment)).toBe('does not match its checksum');
    expect(() => loadConfig({ BACKUP_DIR: "/tmp/o'brien" })).toThrow(/BACKUP_DIR: must not contain quotes/);
    expect(loadConfig({ BACKUP_DIR: 'b' }).backup).toEqual({
      dir: path.resolve('b'),
      intervalHours: 24,
      keep: 7,
    });
  });

  it('refuses a manifest that does not match its checksum', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'backup-unit-'));
    const folder = path.join(dir, 'backup-20261123T190000Z');
    await mkdir(folder);
    await writeManifest(folder, manifest('backup-20261123T190000Z', '000000010000000000000005'));
    expect((await readManifest(folder)).name).toBe('backup-20261123T190000Z');
    await writeFile(path.join(folder, 'manifest.json'), '{}', { flag: 'a' });
    await expect(readManifest(folder)).rejects.toThrow('manifest.json does not match its checksum');
  });

  it('keeps the newest BACKUP_KEEP backups and the WAL the oldest of them needs', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'backup-unit-'));
    const make = async (name: string, startFile: string) => {
      await mkdir(path.join(dir, name));
      await writeManifest(path.join(dir, name), manifest(name, startFile));
    };
    await make('backup-20261121T000000Z', '000000010000000000000002');
    await make('backup-20261122T000000Z', '000000010000000000000005');
    await make('backup-20261123T000000Z', '000000010000000000000009');
    await mkdir(path.join(dir, 'backup-20261122T120000Z.partial'));
    await mkdir(path.join(dir, 'backup-20261123T120000Z.partial'));
    await mkdir(path.join(dir, 'wal'));
    const wal = [
      '000000010000000000000003',
      '000000010000000000000004',
      '000000010000000000000005',
      '000000010000000000000005.00000028.backup',
      '000000010000000000000006',
      '00000002.history',
    ];
    for (const name of wal) await writeFile(path.join(dir, 'wal', name), '');

    const deleted = await pruneBackups(dir, 2);
    expect(deleted).toEqual(['backup-20261121T000000Z', 'backup-20261122T120000Z.partial']);
    expect((await listBackups(dir)).map((b) => b.name)).toEqual([
      'backup-20261122T000000Z',
      'backup-20261123T000000Z',
      // Possibly still being written: newer than the newest complete backup.
      'backup-20261123T120000Z.partial',
    ]);
    expect((await readdir(path.join(dir, 'wal'))).sort()).toEqual([
      '000000010000000000000005',
      '000000010000000000000005.00000028.backup',
      '000000010000000000000006',
      '00000002.history',
    ]);
    expect(existsSync(path.join(dir, 'backup-20261121T000000Z'))).toBe(false);
  });
});
