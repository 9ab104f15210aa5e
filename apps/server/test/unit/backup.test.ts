import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { archiveCommand } from '../../src/backup/archive.ts';
import { backupName, humanSize, listBackups, pruneBackups } from '../../src/backup/catalogue.ts';
import { FORMAT, type Manifest, readManifest, writeManifest } from '../../src/backup/manifest.ts';
import { parseTimestamp } from '../../src/backup/restore.ts';
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

  it('archives each segment once, durably, and never over different content', () => {
    expect(archiveCommand('/b/wal')).toBe(
      "if [ -f '/b/wal/%f' ]; then cmp -s '%p' '/b/wal/%f'; else cp '%p' '/b/wal/%f.tmp' && sync '/b/wal/%f.tmp' && mv '/b/wal/%f.tmp' '/b/wal/%f'; fi",
    );
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
