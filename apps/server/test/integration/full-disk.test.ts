import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedUrl, liveClient, type Session, sql } from '../support/live.ts';
import { type ServerProcess, serverSetup, startServerProcess } from '../support/process.ts';
import { missing } from '../support/required.ts';

/**
 * A real full disk: the app's DATA_DIR on a small ext4 image mounted through a loop device (where the machine
 * allows it: root, and loop devices). The disk guard refuses new orders before the disk is full; filled to the
 * last byte, the app stays up and answers; with room again it takes orders by itself; stopped, it leaves no
 * PostgreSQL behind.
 */
function loopMountsWork(): boolean {
  if (process.getuid?.() !== 0) return false;
  const dir = spawnSync('mktemp', ['-d'], { encoding: 'utf8' }).stdout.trim();
  const image = `${dir}.img`;
  try {
    const steps: [string, string[]][] = [
      ['truncate', ['-s', '8M', image]],
      ['mkfs.ext4', ['-q', image]],
      ['mount', ['-o', 'loop', image, dir]],
      ['umount', [dir]],
    ];
    return steps.every(([cmd, args]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0);
  } finally {
    spawnSync('rm', ['-rf', dir, image]);
  }
}
const LOOP = loopMountsWork();

const PASSWORD = 'Full-disk-2026!';
const MIN_FREE_MB = 96;
let root = '';
let mount = '';
let server: ServerProcess | undefined;

const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'pipe' });
const freeBytes = async () => {
  const s = await statfs(mount);
  return s.bavail * s.bsize;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  if (!LOOP) return;
  root = await mkdtemp(path.join(tmpdir(), 'exchange-full-disk-'));
  await chmod(root, 0o755);
  mount = path.join(root, 'mnt');
  await mkdir(mount);
  sh('truncate', ['-s', '600M', path.join(root, 'disk.img')]);
  // No blocks reserved for root: the app (root here) meets the same full disk as PostgreSQL.
  sh('mkfs.ext4', ['-q', '-m', '0', path.join(root, 'disk.img')]);
  sh('mount', ['-o', 'loop', path.join(root, 'disk.img'), mount]);
  await chmod(mount, 0o755);
}, 60_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  if (mount) {
    // Whatever still holds the mount (a PostgreSQL left behind would) is ended, so the image can go.
    spawnSync('fuser', ['-k', '-m', mount], { stdio: 'ignore' });
    spawnSync('umount', [mount], { stdio: 'ignore' });
  }
  if (root) await rm(root, { recursive: true, force: true });
});

describe.skipIf(missing(LOOP, 'loop mounts (root and /dev/loop*)'))(
  'a full disk under the data folder',
  () => {
    it('refuses orders before the disk is full, stays up when it is, and recovers by itself', {
      timeout: 180_000,
    }, async () => {
      const setup = await serverSetup('exchange-full-disk-env-', {
        DEMO_PASSWORD: PASSWORD,
        RATE_LIMITS: 'false',
        SIM_BLOCK_MS: '0',
        EVM_DEVNET: 'false',
        DISK_MIN_FREE_MB: String(MIN_FREE_MB),
      });
      const { env, base } = setup;
      // The data folder is on the small disk instead: the one the setup made is not used (it was left behind).
      await rm(setup.dataDir, { recursive: true, force: true });
      const dataDir = path.join(mount, 'data');
      server = await startServerProcess({ ...env, DATA_DIR: dataDir }, 120_000);
      const dbUrl = await embeddedUrl(dataDir, { ...env, DATA_DIR: dataDir });
      const api = liveClient(base, () => dbUrl, PASSWORD);
      const alice: Session = await api.login('alice@example.com');
      const order = () =>
        api.call(
          'POST',
          '/api/v2/peatio/market/orders',
          { market: 'ethbtc', side: 'buy', volume: '0.01', price: '0.001', ord_type: 'limit' },
          alice,
        );
      const first = await order();
      expect(first.status, JSON.stringify(first.body)).toBe(201);

      // Below DISK_MIN_FREE_MB: refused before anything is written (the guard reads the disk every 5 s).
      const filler = path.join(mount, 'filler');
      sh('fallocate', ['-l', String((await freeBytes()) - (MIN_FREE_MB / 2) * 2 ** 20), filler]);
      let refused = await order();
      for (let i = 0; i < 40 && refused.status !== 503; i++) {
        await sleep(250);
        refused = await order();
      }
      expect(refused).toEqual({ status: 503, body: { errors: ['server.disk_low'] } });

      // The last byte taken (a second file, so the first can go on its own), then writes the guard lets through:
      // cancels. PostgreSQL cannot write; the app must stay up and keep answering.
      spawnSync('sh', ['-c', `cat /dev/zero > '${path.join(mount, 'filler-2')}'`], { stdio: 'ignore' });
      expect(await freeBytes()).toBeLessThan(2 ** 20);
      // New WAL segments must be made: PostgreSQL cannot write them (it stops, and is started again by the app).
      const walErrors: string[] = [];
      for (let i = 0; i < 12; i++) {
        await sql(dbUrl, 'select pg_switch_wal()').catch((err: Error) => walErrors.push(err.message));
        await api.call('POST', '/api/v2/peatio/market/orders/cancel', {}, alice);
      }
      // PostgreSQL did hit the full disk (it could not write its WAL).
      expect(walErrors.join('\n')).toMatch(/No space left on device|recovery mode|terminating connection/);
      for (let i = 0; i < 5; i++) {
        const cancel = await api.call('POST', '/api/v2/peatio/market/orders/cancel', {}, alice);
        expect([201, 503]).toContain(cancel.status);
        await sleep(500);
      }
      const ready = await fetch(`${base}/api/v2/peatio/public/health/ready`);
      expect([200, 503]).toContain(ready.status);
      expect(server.child.exitCode).toBeNull();

      // Room again: the app takes orders by itself, without a restart.
      await rm(filler);
      await rm(path.join(mount, 'filler-2'));
      let placed = await order();
      for (let i = 0; i < 120 && placed.status !== 201; i++) {
        await sleep(500);
        placed = await order();
      }
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      expect(server.child.exitCode).toBeNull();

      // Stopped, it takes its PostgreSQL with it.
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(spawnSync('fuser', ['-m', mount], { stdio: 'pipe' }).stdout.toString().trim()).toBe('');
      expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    });
  },
);
