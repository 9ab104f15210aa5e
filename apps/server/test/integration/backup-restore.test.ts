import { existsSync } from 'node:fs';
import {
  chmod,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, embeddedUrl, liveClient, sql } from '../support/live.ts';
import { freePort } from '../support/ports.ts';
import { type ServerProcess, serverSetup, startServerProcess } from '../support/process.ts';
import { trxMoves } from '../support/trx-moves.ts';

/**
 * Backups of a running exchange and restores of them: orders, trades, a deposit and a withdrawal are written,
 * a backup is taken, more is written, and the backup is restored into fresh data folders, to its own moment
 * and (from the WAL archive) to a moment between the two; the app started on each holds exactly what was
 * committed at that moment, and the ledger audit is clean. A damaged backup is refused and changes nothing.
 */
const PASSWORD = 'Backup-pass-2026!';
let root: string;
let backupDir: string;
let dataDir: string;
let env: Record<string, string>;
let base: string;
let dbUrl = '';
const servers: ServerProcess[] = [];
/** The backup taken by the first test, for the refusal tests. */
let backupName = '';

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'exchange-backups-'));
  // PostgreSQL runs as its own user when we are root; it archives into BACKUP_DIR/wal and reads restores.
  await chmod(root, 0o755);
  backupDir = path.join(root, 'backups');
  ({ dataDir, env, base } = await serverSetup('exchange-backup-', {
    DEMO_PASSWORD: PASSWORD,
    RATE_LIMITS: 'false',
    BACKUP_DIR: backupDir,
    BACKUP_INTERVAL_HOURS: '0',
    SIM_BLOCK_MS: '0',
    WALLET_POLL_MS: '200',
    WITHDRAW_HOLD_HOURS: '0',
    EVM_DEVNET: 'false',
    // The signer's seed is not in a database backup (it is backed up on its own, as its 24 words): a restored
    // data folder gets the same seed file back, as an operator restores it.
    SIGNER_SEED_FILE: path.join(root, 'signer-seed.json'),
    SIGNER_KEY: 'the backup test signer key',
  }));
});

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
  await rm(dataDir, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

async function start(extra: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({ ...env, ...extra });
  servers.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

/** Everything that is money: balances, system accounts, postings, orders, trades, deposits, withdrawals. */
async function money(url: string) {
  const q = (text: string) => sql(url, text);
  return {
    balances: await q('select user_id, currency_id, balance::text, locked::text from balances order by 1, 2'),
    system: await q('select account, currency_id, amount::text from system_balances order by 1, 2'),
    postings: await q(
      'select count(*)::int as n, coalesce(max(batch_seq), 0)::text as last from ledger_postings',
    ),
    orders: await q(
      'select id, user_id, state, remaining_volume::text, locked::text from orders order by id',
    ),
    trades: await q('select id, price::text, amount::text from trades order by id'),
    deposits: await q('select id, user_id, currency_id, amount::text from deposits order by id'),
    withdrawals: await q('select id, user_id, amount::text, state from withdrawals order by id'),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('backup and restore of the embedded database', () => {
  // Three app starts, a backup and two restores: 40-60 s here, beside another heavy file (vitest.config.ts HEAVY).
  it('restores what was committed at the backup and at a moment after it, with the audit clean', {
    timeout: 240_000,
  }, async () => {
    await start({});
    dbUrl = await embeddedUrl(dataDir, env);
    const api = liveClient(base, () => dbUrl, PASSWORD);
    const { deposit, withdraw } = trxMoves(api, () => dbUrl);
    const alice = await api.login('alice@example.com');
    const bob = await api.login('bob@example.com');
    const trade = async () => {
      const order = { market: 'ethbtc', volume: '0.01', price: '0.001', ord_type: 'limit' };
      const buy = await api.call('POST', '/api/v2/peatio/market/orders', { ...order, side: 'buy' }, alice);
      const sell = await api.call('POST', '/api/v2/peatio/market/orders', { ...order, side: 'sell' }, bob);
      expect([buy.status, sell.status]).toEqual([201, 201]);
    };

    // Before the backup: trades, an open order, a deposit from the chain, a withdrawal to another user.
    await trade();
    await trade();
    const open = await api.call(
      'POST',
      '/api/v2/peatio/market/orders',
      { market: 'ethbtc', side: 'buy', volume: '0.02', price: '0.0005', ord_type: 'limit' },
      alice,
    );
    expect(open.status).toBe(201);
    await deposit(alice, '25');
    await withdraw(alice, bob, '12');
    const atBackup = await money(dbUrl);
    expect(atBackup.trades.length).toBeGreaterThanOrEqual(2);

    const t0 = performance.now();
    const backup = cli(env, ['backup']);
    const backupMs = performance.now() - t0;
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('audit at the moment of the backup passed');
    backupName = /backup (backup-\S+) written/.exec(backup.stdout)?.[1] ?? '';
    expect(backupName).not.toBe('');

    // After the backup: more trades and a deposit up to the moment `between`, then more after it.
    await trade();
    await deposit(bob, '3');
    const atBetween = await money(dbUrl);
    expect(atBetween.trades.length).toBeGreaterThan(atBackup.trades.length);
    expect(atBetween.deposits.length).toBeGreaterThan(atBackup.deposits.length);
    await sleep(300);
    const between = (await sql<{ now: string }>(dbUrl, 'select now()::text as now'))[0]?.now ?? '';
    await sleep(300);
    // The rest in two segments of their own (for the damaged-archive test): a trade, then a withdrawal.
    await archiveNow(dbUrl);
    await trade();
    await archiveNow(dbUrl);
    await withdraw(alice, bob, '10');
    const atEnd = await money(dbUrl);
    expect(atEnd.trades.length).toBeGreaterThan(atBetween.trades.length);
    await archiveNow(dbUrl);

    const listed = cli(env, ['backup', 'list']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${backupName}\\s+\\S+\\s+base\\s+[\\d.]+ MiB\\s+audit passed`));
    expect(listed.stdout).toMatch(/WAL archive .*: \d+ segments .*, newest [0-9A-F]{24} archived /);
    expect(listed.stdout).toContain('every file matches its checksum');
    const verified = cli(env, ['backup', 'verify']);
    expect(verified.status, verified.stdout).toBe(0);
    // Each archived segment carries the checksum written as it was archived.
    const archivedNames = await readdir(path.join(backupDir, 'wal'));
    for (const name of archivedNames.filter((n) => /^[0-9A-F]{24}$/.test(n)))
      expect(archivedNames).toContain(`${name}.sha256`);

    // Never over a live (or any non-empty) data folder.
    const overLive = cli(env, ['restore', backupName]);
    expect(overLive.status).toBe(1);
    expect(overLive.stderr).toContain(`restore refused: DATA_DIR ${dataDir} is not empty`);
    await stop(servers[0] as ServerProcess);

    const plain = path.join(root, 'restored');
    const t1 = performance.now();
    const restored = cli({ ...env, DATA_DIR: plain }, ['restore', backupName]);
    const restoreMs = performance.now() - t1;
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('audit passed');
    expect(await startedMoney(plain)).toEqual(atBackup);

    const pitr = path.join(root, 'restored-pitr');
    const toBetween = cli({ ...env, DATA_DIR: pitr }, ['restore', backupName, '--to', between]);
    expect(toBetween.status, toBetween.stderr).toBe(0);
    expect(toBetween.stdout).toContain('last transaction replayed');
    expect(await startedMoney(pitr)).toEqual(atBetween);

    const { bytes } = JSON.parse(await readFile(path.join(backupDir, backupName, 'manifest.json'), 'utf8'));
    console.log(
      `backup ${backupName}: ${(bytes / 2 ** 20).toFixed(1)} MiB in ${(backupMs / 1000).toFixed(1)} s (CLI included); restore ${(restoreMs / 1000).toFixed(1)} s`,
    );
    // Each restored app went on on a timeline of its own and archived its history: no WAL name was taken twice.
    expect(await readdir(path.join(backupDir, 'wal'))).toEqual(
      expect.arrayContaining(['00000002.history', '00000003.history']),
    );
  });

  // A backup, then three restores that are refused: about 30 s alone, more beside other integration files.
  it('refuses a corrupted or truncated backup, and changes nothing', { timeout: 120_000 }, async () => {
    expect(backupName).not.toBe('');
    const source = path.join(backupDir, backupName);
    const manifest = JSON.parse(await readFile(path.join(source, 'manifest.json'), 'utf8')) as {
      files: { path: string; size: number }[];
    };
    const victim = manifest.files.find((f) => f.path.startsWith('pgdata/base/') && f.size >= 16384);
    if (!victim) throw new Error('no data file to damage');

    const corrupted = path.join(root, 'corrupted');
    await cp(source, corrupted, { recursive: true });
    const file = path.join(corrupted, victim.path);
    const bytes = await readFile(file);
    bytes[8200] = (bytes[8200] ?? 0) ^ 0xff;
    await writeFile(file, bytes);
    const truncated = path.join(root, 'truncated');
    await cp(source, truncated, { recursive: true });
    await truncate(path.join(truncated, victim.path), victim.size - 8192);
    const badManifest = path.join(root, 'bad-manifest');
    await cp(source, badManifest, { recursive: true });
    await writeFile(path.join(badManifest, 'manifest.json'), '{"format":"exchange-backup/1"', { flag: 'a' });

    // An empty data folder that must stay empty, and one that must not come into being.
    const empty = path.join(root, 'empty-data');
    await mkdir(empty);
    const absent = path.join(root, 'absent-data');
    const cases: [string, string, string][] = [
      [corrupted, empty, `${victim.path} does not match its sha256 checksum (corrupted)`],
      [
        truncated,
        absent,
        `${victim.path} has ${victim.size - 8192} bytes, expected ${victim.size} (truncated`,
      ],
      [badManifest, absent, 'manifest.json does not match its checksum'],
    ];
    for (const [backup, target, message] of cases) {
      const before = await stat(backup);
      const run = cli({ ...env, DATA_DIR: target }, ['restore', backup]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('restore refused: backup');
      expect(run.stderr).toContain(message);
      expect((await stat(backup)).mtimeMs).toBe(before.mtimeMs);
      expect(existsSync(`${target}.restoring`)).toBe(false);
    }
    expect(await readdir(empty)).toEqual([]);
    expect(existsSync(absent)).toBe(false);

    const early = cli({ ...env, DATA_DIR: absent }, [
      'restore',
      backupName,
      '--to',
      '2000-01-01 00:00:00+00',
    ]);
    expect(early.stderr).toContain('is before backup');
    const late = cli({ ...env, DATA_DIR: absent }, ['restore', backupName, '--to', '2100-01-01 00:00:00+00']);
    expect(late.stderr).toContain('the WAL archive ends before the --to time');
    const external = cli({ ...env, DATA_DIR: absent, DATABASE_URL: 'postgresql://nobody@127.0.0.1:9/none' }, [
      'restore',
      backupName,
    ]);
    expect(external.stderr).toContain('is a physical backup of the embedded database: unset DATABASE_URL');
    expect(existsSync(absent)).toBe(false);
    expect(existsSync(`${absent}.restoring`)).toBe(false);
  });

  it('refuses to restore past a damaged WAL segment, names the last good moment, and goes only as far as told', {
    timeout: 120_000,
  }, async () => {
    expect(backupName).not.toBe('');
    // A copy of the whole backup folder (backups and WAL archive), with one byte flipped in the segment that holds
    // the last trade: before it, the work up to `between`; after it, the last withdrawal.
    const copy = path.join(root, 'flipped-backups');
    await cp(backupDir, copy, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(copy, backupName, 'manifest.json'), 'utf8')) as {
      wal: { startFile: string };
      files: { path: string; size: number }[];
    };
    const start = manifest.wal.startFile;
    const after = (await readdir(path.join(copy, 'wal')))
      .filter((n) => /^[0-9A-F]{24}$/.test(n) && n.startsWith(start.slice(0, 8)) && n > start)
      .sort();
    const victim = after[1] ?? after[0];
    if (!victim) throw new Error('no archived segment after the backup');
    const segment = path.join(copy, 'wal', victim);
    const bytes = await readFile(segment);
    bytes[100] = (bytes[100] ?? 0) ^ 0xff;
    await writeFile(segment, bytes);
    // And a copy of the backup itself with a flipped data byte.
    const damagedBackup = path.join(copy, 'backup-damaged-copy');
    await cp(path.join(copy, backupName), damagedBackup, { recursive: true });
    const dataFile = manifest.files.find((f) => f.path.startsWith('pgdata/base/') && f.size >= 16384);
    if (!dataFile) throw new Error('no data file to damage');
    const data = await readFile(path.join(damagedBackup, dataFile.path));
    data[8200] = (data[8200] ?? 0) ^ 0xff;
    await writeFile(path.join(damagedBackup, dataFile.path), data);

    const listed = cli(env, ['backup', 'list', copy]);
    expect(listed.stdout).toMatch(/backup-damaged-copy\s.*UNUSABLE: .*does not match its sha256 checksum/);
    expect(listed.stdout).toContain(`DAMAGED: ${victim} does not match its checksum`);
    const verify = cli(env, ['backup', 'verify', copy]);
    expect(verify.status).toBe(1);
    expect(verify.stdout).toContain('verify: DAMAGED');

    const target = path.join(root, 'restored-damaged');
    const refused = cli({ ...env, DATA_DIR: target }, [
      'restore',
      path.join(copy, backupName),
      '--to',
      'latest',
    ]);
    expect(refused.status, refused.stdout).toBe(1);
    expect(refused.stderr).toContain(`segment ${victim} does not match its checksum`);
    expect(refused.stderr).toMatch(/at least [1-9]\d* committed transaction\(s\) lie beyond it/);
    expect(refused.stderr).toContain('Nothing was restored');
    const lastGood = /--accept-loss-after "([^"]+)"/.exec(refused.stderr)?.[1] ?? '';
    expect(lastGood).not.toBe('');
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.restoring`)).toBe(false);

    // A time after the last good moment is not what the archive can give: still refused.
    const tooLate = cli({ ...env, DATA_DIR: target }, [
      'restore',
      path.join(copy, backupName),
      '--accept-loss-after',
      '2100-01-01 00:00:00+00',
    ]);
    expect(tooLate.status).toBe(1);
    expect(existsSync(target)).toBe(false);

    const accepted = cli({ ...env, DATA_DIR: target }, [
      'restore',
      path.join(copy, backupName),
      '--to',
      'latest',
      '--accept-loss-after',
      lastGood,
    ]);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain(`WAL archive damaged at segment ${victim}`);
    expect(accepted.stdout).toContain(`last transaction replayed: ${lastGood}`);
    expect(accepted.stdout).toContain('audit passed');
  });
});

/** Starts the app on a restored data folder, checks the audit through the CLI, and returns its money. */
async function startedMoney(restoredDir: string) {
  const port = await freePort();
  const extra = { DATA_DIR: restoredDir, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()) };
  const server = await start(extra);
  try {
    const ready = await fetch(`http://127.0.0.1:${port}/api/v2/peatio/public/health/ready`);
    expect(ready.status).toBe(200);
    const audit = cli({ ...env, ...extra }, ['audit']);
    expect(audit.status, audit.stderr).toBe(0);
    return await money(await embeddedUrl(restoredDir, { ...env, ...extra }));
  } finally {
    await stop(server);
  }
}

/** Closes the current WAL segment and waits until it is archived, so a restore can reach everything so far. */
async function archiveNow(url: string): Promise<void> {
  const switched = await sql<{ file: string }>(url, 'select pg_walfile_name(pg_switch_wal()) as file');
  const file = switched[0]?.file ?? '';
  await until(`WAL segment ${file} in the archive`, async () =>
    existsSync(path.join(backupDir, 'wal', file)),
  );
}
