import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { SignedApiClient } from '../../src/demo/api-client.ts';
import { apiKeyFor } from '../support/api-key.ts';
import { createTestDatabase, type TestDatabase, tablesCaughtUp } from '../support/db.ts';
import { type ServerProcess, serverSetup, startServerProcess } from '../support/process.ts';

// Two whole app processes on one PostgreSQL: the first holds the core lease, the second waits as a standby.
let db: TestDatabase;
let active: ServerProcess;
let standby: ServerProcess;
const bases: string[] = [];
const dataDirs: string[] = [];

const seedFile = path.join(tmpdir(), `exchange-failover-seed-${process.pid}.json`);

beforeAll(async () => {
  db = await createTestDatabase();
  const env = async (prefix: string) => {
    const setup = await serverSetup(prefix, {
      DATABASE_URL: db.url,
      // Each process starts its own signer child; both must hold the one wallet's seed.
      SIGNER_SEED_FILE: seedFile,
      SIGNER_KEY: 'the failover test signer key',
    });
    bases.push(setup.base);
    dataDirs.push(setup.dataDir);
    return setup.env;
  };
  active = await startServerProcess(await env('exchange-active-'));
  standby = await startServerProcess(await env('exchange-standby-'), 60_000, 'standby:');
});

afterAll(async () => {
  for (const p of [active, standby]) {
    if (p && p.child.exitCode === null) {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  }
  await db.drop();
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  await rm(seedFile, { force: true });
});

const ready = async (base: string) =>
  fetch(`${base}/api/v2/peatio/public/health/ready`)
    .then(async (r) => (r.ok ? ((await r.json()) as { core: { term: number } }) : undefined))
    .catch(() => undefined);

describe('a standby core', () => {
  it('takes over when the active process is killed; every acknowledged order is stored exactly once', async () => {
    const [activeBase, standbyBase] = bases as [string, string];
    const before = await ready(activeBase);
    expect(before?.core.term).toBeGreaterThan(0);
    expect(await ready(standbyBase)).toBeUndefined();
    const { kid, secret } = await apiKeyFor(db.pool, 'alice@example.com');
    const clients = [activeBase, standbyBase].map((b) => new SignedApiClient(b, kid, secret, 2000));

    // Four traders place orders, each with its own client id, and retry one that got no answer (same id)
    // against the other process until it is answered: the client id makes the retry safe.
    const acknowledged = new Set<string>();
    let killedAt = 0;
    let firstAfterKill = 0;
    const trader = async (n: number) => {
      for (let i = 0; i < 25; i++) {
        const clientId = `t${n}-${i}`;
        for (let attempt = 0; ; attempt++) {
          const target = killedAt ? 1 : 0;
          const client = clients[target] as SignedApiClient;
          try {
            await client.call('POST', '/market/orders', {
              market: 'ethbtc',
              side: 'buy',
              ord_type: 'limit',
              price: '0.01',
              volume: '0.01',
              client_id: clientId,
            });
            acknowledged.add(clientId);
            if (target === 1 && !firstAfterKill) firstAfterKill = performance.now();
            break;
          } catch (err) {
            if (attempt > 300) throw err;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        if (n === 0 && i === 10) {
          active.child.kill('SIGKILL');
          killedAt = performance.now();
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(trader));
    const takeoverMs = Math.round(firstAfterKill - killedAt);
    console.log(`standby took over: first order answered ${takeoverMs} ms after the active core was killed`);

    const after = await ready(standbyBase);
    expect(after?.core.term).toBe((before?.core.term ?? 0) + 1);
    expect(acknowledged.size).toBe(100);
    // Orders are answered once in the journal; the new core projects what the old one had not.
    await tablesCaughtUp(db.pool);
    const stored = await db.pool.query(
      `select o.id from orders o join users u on u.id = o.user_id where u.email = 'alice@example.com'`,
    );
    // Exactly one order per client id: none lost, none applied twice.
    expect(stored.rowCount).toBe(100);
    const refs = await db.pool.query(
      `select count(*)::int as n from client_commands where ref like 'order:%'`,
    );
    expect(refs.rows[0].n).toBe(100);
    expect(await auditLedger(db.pool)).toEqual([]);
  });
});
