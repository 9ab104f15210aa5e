import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { auditLedger } from '../../src/core/audit.ts';
import { SignedApiClient } from '../../src/demo/api-client.ts';
import { signature } from '../../src/modules/api-keys/hmac.ts';
import { SessionStore } from '../../src/modules/identity/sessions.ts';
import { apiKeyFor } from '../support/api-key.ts';
import { type ClusterProcess, TestCluster } from '../support/cluster.ts';
import { type TestDatabase, tablesCaughtUp } from '../support/db.ts';
import { NATS_SERVER } from '../support/nats.ts';
import { missing } from '../support/required.ts';
import { within } from '../support/within.ts';

// The split deployment on real parts: PostgreSQL, nats-server with JetStream, and seven processes by role.
let cluster: TestCluster;
let db: TestDatabase;
let processes: TestCluster['processes'] = {};
const dataDirOf = (name: string) => processes[name]?.dataDir ?? '/nonexistent';

beforeAll(async () => {
  if (!NATS_SERVER) return;
  cluster = await TestCluster.create();
  ({ db, processes } = cluster);
  const start = cluster.start.bind(cluster);
  // The first core seeds and takes the lease; the rest start together.
  await start('core1', 'core');
  await start('api1', 'api');
  await Promise.all([
    start('core2', 'core', 'standby:'),
    start('api2', 'api'),
    start('ws1', 'ws'),
    start('ws2', 'ws'),
    start('worker', 'worker', 'worker: running the wallet job'),
  ]);
  // A second worker waits for every job the first one runs.
  await start('worker2', 'worker', 'standby:');
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
});

type Level = [string, string];
type Started = ClusterProcess;

/** A websocket client keeping the ethbtc book from ob-snap and gap-free ob-inc, as a trading screen does. */
function bookWatcher(base: string) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/v2/ranger/public/?stream=ethbtc.ob-inc`);
  const book = { asks: new Map<string, string>(), bids: new Map<string, string>(), sequence: -1, gaps: 0 };
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Record<
      string,
      { asks?: unknown; bids?: unknown; sequence: number }
    >;
    const snap = frame['ethbtc.ob-snap'];
    const inc = frame['ethbtc.ob-inc'];
    if (snap) {
      book.asks = new Map(snap.asks as Level[]);
      book.bids = new Map(snap.bids as Level[]);
      book.sequence = snap.sequence;
    } else if (inc) {
      if (inc.sequence !== book.sequence + 1) {
        book.gaps++;
        return;
      }
      book.sequence = inc.sequence;
      for (const side of ['asks', 'bids'] as const) {
        const level = inc[side] as Level | undefined;
        if (!level) continue;
        if (Number(level[1]) === 0) book[side].delete(level[0]);
        else book[side].set(level[0], level[1]);
      }
    }
  });
  const opened = new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const levels = (side: 'asks' | 'bids') =>
    [...book[side].entries()]
      .map(([p, v]) => [p, v] as Level)
      .sort((a, b) => (side === 'asks' ? 1 : -1) * (Number(a[0]) - Number(b[0])));
  return { socket, opened, book, levels };
}

describe.skipIf(missing(NATS_SERVER, 'nats-server'))('the split deployment', () => {
  it('trades through two api and two ws processes while the active core is killed and the standby takes over', async () => {
    const [api1, api2, ws1, ws2, core1, core2] = ['api1', 'api2', 'ws1', 'ws2', 'core1', 'core2'].map(
      (name) => cluster.get(name),
    ) as [Started, Started, Started, Started, Started, Started];
    const term = async (base: string) =>
      fetch(`${base}/api/v2/peatio/public/health/ready`)
        .then(async (r) =>
          r.ok ? ((await r.json()) as { core: { active: boolean; term: number } }).core : undefined,
        )
        .catch(() => undefined);
    const first = await term(core1.base);
    expect(first?.active).toBe(true);
    // The standby is alive and says so, but is not ready: a load balancer sends it nothing.
    const waiting = await fetch(`${core2.base}/api/v2/peatio/public/health/ready`);
    expect([waiting.status, await waiting.json()]).toEqual([
      503,
      {
        status: 'standby',
        roles: ['core'],
        core: { active: false },
        phase: 'waiting for the core lease',
        seconds: expect.any(Number),
      },
    ]);

    const watchers = [bookWatcher(ws1.base), bookWatcher(ws2.base)];
    await Promise.all(watchers.map((w) => w.opened));
    const keys = {
      alice: await apiKeyFor(db.pool, 'alice@example.com'),
      bob: await apiKeyFor(db.pool, 'bob@example.com'),
    };
    const client = (who: 'alice' | 'bob', base: string) =>
      new SignedApiClient(base, keys[who].kid, keys[who].secret, 5000);

    const acknowledged = new Set<string>();
    let killedAt = 0;
    let firstAfterKill = 0;
    let takeover: Promise<number> | undefined;
    // Alice quotes asks, Bob buys some of them; each trader alternates between the two api processes and
    // retries an unanswered order with the same client id until it is answered.
    const trader = async (who: 'alice' | 'bob', n: number) => {
      for (let i = 0; i < 30; i++) {
        const clientId = `${who}${n}-${i}`;
        const order =
          who === 'alice'
            ? {
                market: 'ethbtc',
                side: 'sell',
                ord_type: 'limit',
                price: `0.0${50 + (i % 9)}`,
                volume: '0.1',
                client_id: clientId,
              }
            : {
                market: 'ethbtc',
                side: 'buy',
                ord_type: 'limit',
                price: '0.052',
                volume: '0.05',
                client_id: clientId,
              };
        for (let attempt = 0; ; attempt++) {
          const base = (attempt + i) % 2 === 0 ? api1.base : api2.base;
          try {
            const sentAfterKill = killedAt > 0;
            await client(who, base).call('POST', '/market/orders', order);
            acknowledged.add(clientId);
            if (sentAfterKill && !firstAfterKill) firstAfterKill = performance.now();
            break;
          } catch (err) {
            if (attempt > 200) throw err;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        if (who === 'alice' && n === 0 && i === 12) {
          core1.process.child.kill('SIGKILL');
          killedAt = performance.now();
          // The takeover: from the kill until the standby says it is the active core.
          takeover = (async () => {
            while (!(await term(core2.base))?.active) await new Promise((r) => setTimeout(r, 20));
            return Math.round(performance.now() - killedAt);
          })();
        }
      }
    };
    await Promise.all([trader('alice', 0), trader('alice', 1), trader('bob', 0), trader('bob', 1)]);
    console.log(
      `standby core took over ${await takeover} ms after the active one was SIGKILLed; the first order sent after the kill was answered after ${Math.round(firstAfterKill - killedAt)} ms`,
    );

    const second = await term(core2.base);
    expect(second).toEqual({ active: true, term: (first?.term ?? 0) + 1 });
    // The new core says how long loading the engine took.
    expect(core2.process.output()).toMatch(
      /took over as the active exchange core \(term \d+\); the engine loaded in \d+ ms/,
    );
    expect(acknowledged.size).toBe(120);
    // Orders are answered once in the journal; the new core projects what the old one had not.
    await tablesCaughtUp(db.pool);
    // Exactly one order per client id: none lost, none applied twice.
    const stored = await db.pool.query(
      `select count(*)::int as n, count(distinct o.id)::int as d from orders o join users u on u.id = o.user_id
       where u.email in ('alice@example.com', 'bob@example.com')`,
    );
    expect(stored.rows[0]).toEqual({ n: 120, d: 120 });
    expect(await auditLedger(db.pool)).toEqual([]);

    // Both gateways' books, built from the stream across the failover, are the book the api serves.
    const depth = async () =>
      (await (await fetch(`${api2.base}/api/v2/peatio/public/markets/ethbtc/depth?limit=100`)).json()) as {
        asks: Level[];
        bids: Level[];
      };
    const deadline = Date.now() + 10_000;
    for (const watcher of watchers) {
      for (;;) {
        const served = await depth();
        const same =
          JSON.stringify(watcher.levels('asks')) === JSON.stringify(served.asks) &&
          JSON.stringify(watcher.levels('bids')) === JSON.stringify(served.bids);
        if (same) break;
        if (Date.now() > deadline)
          expect({ asks: watcher.levels('asks'), bids: watcher.levels('bids') }).toEqual({
            asks: served.asks,
            bids: served.bids,
          });
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(watcher.levels('asks').length).toBeGreaterThan(0);
      watcher.socket.close();
    }
  });

  it('shares nonces, rate limits and sessions between the api processes', async () => {
    const [api1, api2] = ['api1', 'api2'].map((name) => processes[name]?.base as string) as [string, string];
    // A captured signed request replayed to the other api process is refused as it is on the first one.
    const { kid, secret } = await apiKeyFor(db.pool, 'bob@example.com');
    const nonce = String(Date.now());
    const headers = {
      'x-auth-apikey': kid,
      'x-auth-nonce': nonce,
      'x-auth-signature': signature(secret, nonce, kid),
    };
    const balances = (base: string) => fetch(`${base}/api/v2/peatio/account/balances`, { headers });
    expect((await balances(api1)).status).toBe(200);
    const replayed = await balances(api2);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toEqual({ errors: ['authz.nonce_expired'] });

    // The contact form allows five messages a minute per address, counted over both processes.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const sent = await fetch(`${i % 2 === 0 ? api1 : api2}/api/v2/barong/identity/inquiry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'ask@example.com',
          subject: `Question ${i}`,
          name: 'Kim',
          message: 'Hello',
        }),
      });
      statuses.push(sent.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);

    // A logout on one process ends the session on the other at once.
    const bob = (await db.pool.query(`select id from users where email = 'bob@example.com'`)).rows[0]
      .id as string;
    const session = await new SessionStore(db.pool).create(bob, '127.0.0.1', 'test');
    const cookie = `session=${session.token}`;
    const me = (base: string) => fetch(`${base}/api/v2/barong/resource/users/me`, { headers: { cookie } });
    expect((await me(api2)).status).toBe(200);
    const logout = await fetch(`${api1}/api/v2/barong/identity/sessions`, {
      method: 'DELETE',
      headers: { cookie, 'x-csrf-token': session.csrfToken },
    });
    expect(logout.status).toBeLessThan(300);
    await within(1000, async () => (await me(api2)).status === 401);
  });

  it('refuses a reused nonce, a disabled key and a locked user on every api process', async () => {
    const [api1, api2] = ['api1', 'api2'].map((name) => processes[name]?.base as string) as [string, string];
    const id = (
      await db.pool.query(
        `insert into users (uid, email, password_digest, level, state)
         values ('IDLOCKED0001', 'locked@example.com', 'x', 2, 'active') returning id`,
      )
    ).rows[0].id as string;
    const { kid, secret } = await apiKeyFor(db.pool, 'locked@example.com');
    let tick = Date.now();
    // A nonce never used before: the clock's milliseconds, or one past the last when the clock has not moved.
    const next = () => {
      tick = Math.max(Date.now(), tick + 1);
      return String(tick);
    };
    const signed = (nonce = next()) => ({
      'x-auth-apikey': kid,
      'x-auth-nonce': nonce,
      'x-auth-signature': signature(secret, nonce, kid),
    });
    const me = (base: string, headers: Record<string, string>) =>
      fetch(`${base}/api/v2/barong/resource/users/me`, { headers });
    for (const base of [api1, api2]) expect((await me(base, signed())).status).toBe(200);

    // Twenty requests signed with one nonce, sent at once to both processes: exactly one is accepted.
    const once = signed();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => me(i % 2 === 0 ? api1 : api2, once).then((r) => r.status)),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(1);
    expect(answers.filter((status) => status === 401)).toHaveLength(19);

    // A key disabled elsewhere (here by an operator's SQL) is refused by both within a second.
    await db.pool.query(`update api_keys set state = 'inactive' where kid = $1`, [kid]);
    for (const base of [api1, api2])
      await within(1000, async () => (await me(base, signed())).status === 401);
    await db.pool.query(`update api_keys set state = 'active' where kid = $1`, [kid]);
    for (const base of [api1, api2])
      await within(1000, async () => (await me(base, signed())).status === 200);

    // A locked user is refused by session and by key on both within a second.
    const session = await new SessionStore(db.pool).create(id, '127.0.0.1', 'test');
    const cookie = { cookie: `session=${session.token}` };
    for (const base of [api1, api2]) expect((await me(base, cookie)).status).toBe(200);
    await db.pool.query(`update users set state = 'locked' where id = $1`, [id]);
    for (const base of [api1, api2]) {
      await within(1000, async () => (await me(base, cookie)).status === 401);
      await within(1000, async () => (await me(base, signed())).status === 401);
    }
  });

  it("brings the worker's wallet events to the user's websocket on a ws process", async () => {
    const [api1, ws2] = ['api1', 'ws2'].map((name) => processes[name]?.base as string) as [string, string];
    const bob = (await db.pool.query(`select id from users where email = 'bob@example.com'`)).rows[0]
      .id as string;
    const session = await new SessionStore(db.pool).create(bob, '127.0.0.1', 'test');
    const cookie = `session=${session.token}`;
    const socket = new WebSocket(`${ws2.replace('http', 'ws')}/api/v2/ranger/private/?stream=deposit`, {
      headers: { cookie },
    });
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(String(data)));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const address = await fetch(`${api1}/api/v2/peatio/account/deposit_address/trx?blockchain_key=tron-sim`, {
      headers: { cookie },
    });
    const { address: to } = (await address.json()) as { address: string };
    // The api process derived it from the published xpub: it holds no seed, no key to open one, no signer state.
    const api = processes.api1?.process.child.pid;
    const environ = await readFile(`/proc/${api}/environ`, 'utf8');
    expect(environ).not.toMatch(/SIGNER_KEY|SIGNER_SEED_FILE/);
    expect(existsSync(path.join(dataDirOf('api1'), 'signer'))).toBe(false);
    expect(existsSync(path.join(dataDirOf('signer'), 'signer', 'seed.json'))).toBe(true);
    expect(to).toMatch(/^T/);
    // Coins sent to bob's address: the worker's watcher sees the deposit; bob's socket is on ws2.
    const sent = await fetch(`${api1}/api/v2/dev/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blockchain_key: 'tron-sim', currency: 'trx', address: to, amount: '12.5' }),
    });
    expect(sent.status).toBeLessThan(300);
    const deadline = Date.now() + 15_000;
    while (!frames.some((f) => f.startsWith('{"deposit"') && f.includes('12.5')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(frames.find((f) => f.startsWith('{"deposit"'))).toContain('12.5');
    socket.close();
  });

  it('runs each background job in one worker, and the other worker takes them over when it dies', async () => {
    const jobs = ['wallet', 'kyc webhooks', 'card webhooks', 'card fees'];
    const running = (name: string) =>
      jobs.filter((job) => processes[name]?.process.output().includes(`running the ${job} job`));
    expect(running('worker')).toEqual(jobs);
    expect(running('worker2')).toEqual([]);
    processes.worker?.process.child.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (running('worker2').length < jobs.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(running('worker2')).toEqual(jobs);
  });
});
