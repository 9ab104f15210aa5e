import type { Command } from '@exchange/engine';
import { toUnits } from '@exchange/shared';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { type ActiveCore, type Core, startCore } from '../../src/core/index.ts';
import { CoreLease } from '../../src/core/lease.ts';
import { encode } from '../../src/core/remote/codec.ts';
import { CoreServer } from '../../src/core/remote/core-server.ts';
import { RemoteSequencer } from '../../src/core/remote/remote-sequencer.ts';
import { ReplicaSequencer } from '../../src/core/remote/replica.ts';
import { BATCH_SUBJECT } from '../../src/core/remote/subjects.ts';
import type { Submitted } from '../../src/core/sequencer.ts';
import { plainUser } from '../support/core.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { NATS_SERVER, startNats, type TestNats } from '../support/nats.ts';
import { missing } from '../support/required.ts';

const quiet = { info: () => {}, warn: () => {} };
let nats: TestNats;
let db: TestDatabase;
const connections: NatsConnection[] = [];
const leases: CoreLease[] = [];
let alice: number;
let bob: number;

// The whole split on real parts: PostgreSQL, nats-server with JetStream, a core and a replica in their roles.
beforeAll(async () => {
  if (!NATS_SERVER) return;
  nats = await startNats();
  db = await createTestDatabase();
  alice = await plainUser(db.pool, 'alice-nats@example.com');
  bob = await plainUser(db.pool, 'bob-nats@example.com');
}, 60_000);

afterAll(async () => {
  for (const nc of connections) await nc.close().catch(() => {});
  for (const lease of leases) await lease.release();
  await db?.drop();
  await nats?.stop();
});

async function natsConnection(): Promise<NatsConnection> {
  const nc = await connect({ servers: nats.url });
  connections.push(nc);
  return nc;
}

async function activeCore(): Promise<{ core: ActiveCore; server: CoreServer; lease: CoreLease }> {
  const { lease } = await CoreLease.acquire(db.url, quiet);
  leases.push(lease);
  const core = await startCore(db.pool, {}, () => {}, lease);
  const server = await CoreServer.start(await natsConnection(), core.sequencer, quiet);
  return { core, server, lease };
}

async function replicaCore(): Promise<Core & { sequencer: ReplicaSequencer }> {
  const nc = await natsConnection();
  return (await ReplicaSequencer.start(db.pool, nc, new RemoteSequencer(nc), quiet)) as Core & {
    sequencer: ReplicaSequencer;
  };
}

const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const credit = (user: number, currency: string, amount: bigint): Submitted => ({
  type: 'Credit',
  user,
  currency,
  amount,
  kind: 'adjustment',
});

describe.skipIf(missing(NATS_SERVER, 'nats-server'))('the core over NATS', () => {
  let active: Awaited<ReturnType<typeof activeCore>>;
  let replica: Core & { sequencer: ReplicaSequencer };

  it('answers commands from another process; the replica follows the batches with the same results', async () => {
    active = await activeCore();
    replica = await replicaCore();
    const byCore = new Map<number, string>();
    const byReplica = new Map<number, string>();
    // The core marks each result with its batch for the caller (seq); the replica's results come from the batch.
    const text = (results: readonly object[]) =>
      Buffer.from(encode(results.map(({ seq: _seq, ...r }: { seq?: number }) => r))).toString();
    active.core.sequencer.onCommitted((b) => byCore.set(b.seq, text(b.results)));
    replica.sequencer.onCommitted((b) => byReplica.set(b.seq, text(b.results)));

    const remote = replica.sequencer;
    const units = (amount: string, currency: string) => toUnits(amount, replica.units.precision(currency));
    await Promise.all([
      remote.submit(credit(alice, 'eth', units('500', 'eth'))),
      remote.submit(credit(bob, 'btc', units('50', 'btc'))),
    ]);
    const orders: Promise<{ ok: boolean }>[] = [];
    for (let i = 0; i < 100; i++) {
      const price = 5000n + BigInt(i % 7);
      const sell: Command = {
        type: 'PlaceOrder',
        user: alice,
        market: 'ethbtc',
        side: 'sell',
        ordType: 'limit',
        price,
        volume: 1000n,
        at: 0,
      };
      const buy: Command = {
        type: 'PlaceOrder',
        user: bob,
        market: 'ethbtc',
        side: 'buy',
        ordType: 'limit',
        price: 5003n,
        volume: 700n,
        at: 0,
      };
      const { at: _a, ...s } = sell;
      const { at: _b, ...b } = buy;
      orders.push(
        remote.submit(s as Submitted, `nats:sell:${i}`),
        remote.submit(b as Submitted, `nats:buy:${i}`),
      );
    }
    const results = await Promise.all(orders);
    expect(results.every((r) => r.ok)).toBe(true);

    await until(() => replica.sequencer.committedSeq === active.core.sequencer.committedSeq, 'the replica');
    expect(byReplica.size).toBeGreaterThan(0);
    for (const [seq, results] of byReplica) expect(results, `batch ${seq}`).toBe(byCore.get(seq));
    for (const user of [alice, bob])
      for (const currency of ['eth', 'btc'])
        expect(replica.sequencer.state.balance(user, currency)).toEqual(
          active.core.sequencer.state.balance(user, currency),
        );
    expect(replica.sequencer.state.depth('ethbtc', 50)).toEqual(
      active.core.sequencer.state.depth('ethbtc', 50),
    );
    expect(await auditLedger(db.pool)).toEqual([]);
  });

  it('retries a command across a failover with the same client id and applies it once', async () => {
    const before = replica.sequencer.state.balance(bob, 'usdt').balance;
    // The active core stops serving and gives its lease up; a command sent now finds no core yet.
    await active.server.stop();
    await active.lease.release();
    const sent = performance.now();
    const pending = replica.sequencer.submit(credit(bob, 'usdt', 5_000_000n), 'nats:failover:1');
    await new Promise((r) => setTimeout(r, 400));
    const successor = await activeCore();
    expect(successor.lease.term).toBe(active.lease.term + 1);
    expect((await pending).ok).toBe(true);
    console.log(
      `a command sent with no core answered ${Math.round(performance.now() - sent)} ms later, by the successor`,
    );
    // The same id again: the first outcome, nothing applied twice.
    expect((await replica.sequencer.submit(credit(bob, 'usdt', 5_000_000n), 'nats:failover:1')).ok).toBe(
      true,
    );
    await until(
      () => replica.sequencer.committedSeq === successor.core.sequencer.committedSeq,
      'the replica',
    );
    expect(replica.sequencer.state.balance(bob, 'usdt').balance).toBe(before + 5_000_000n);
    expect(successor.core.sequencer.state.balance(bob, 'usdt').balance).toBe(before + 5_000_000n);
    active = successor;
  });

  it('reloads a snapshot when a batch is missing from the stream, and goes on in step', async () => {
    const reloads = replica.sequencer.stats.reloads;
    const missed: number[] = [];
    replica.sequencer.onRecovered(({ seq }) => {
      missed.push(seq);
    });
    // A batch far ahead of the replica: those between never arrived.
    const js = (await natsConnection()).jetstream();
    const ahead = { seq: replica.sequencer.committedSeq + 100, term: active.lease.term, commands: [] };
    await js.publish(BATCH_SUBJECT, encode(ahead), { msgID: 'test-gap' });
    await until(() => replica.sequencer.stats.reloads > reloads, 'the reload');
    expect(missed.length).toBe(1);
    await replica.sequencer.submit(credit(alice, 'usdt', 1_000_000n));
    await until(() => replica.sequencer.committedSeq === active.core.sequencer.committedSeq, 'the replica');
    expect(replica.sequencer.state.balance(alice, 'usdt')).toEqual(
      active.core.sequencer.state.balance(alice, 'usdt'),
    );
    expect(await auditLedger(db.pool)).toEqual([]);
  });

  it('takes a market added and changed through a replica: it trades at once, and replicas know it', async () => {
    const remote = replica.sequencer;
    const added = await remote.submit({
      type: 'AddMarket',
      market: {
        id: 'ethusdtx',
        base: 'eth',
        quote: 'usdt',
        pricePrecision: 2,
        amountPrecision: 2,
        minPrice: 1n,
        maxPrice: 10n ** 30n,
        minAmount: 1n,
        state: 'enabled',
      },
      fees: { maker: 0n, taker: 0n },
    });
    expect(added.ok).toBe(true);
    const place = (user: number, side: 'buy' | 'sell') =>
      remote.submit({
        type: 'PlaceOrder',
        user,
        market: 'ethusdtx',
        side,
        ordType: 'limit',
        price: 100n,
        volume: 100n,
      });
    expect((await place(alice, 'sell')).ok).toBe(true);
    const taken = await place(bob, 'buy');
    // The answer carries the orders it touched (its trades reach the replica with the batch).
    expect(taken.orders.find((o) => o.id === taken.orderId)).toMatchObject({ state: 'done', tradesCount: 1 });
    await until(() => remote.committedSeq === active.core.sequencer.committedSeq, 'the replica');
    expect(replica.markets.get('ethusdtx')).toMatchObject({ minAmount: '0.01', quotePrecision: 6 });
    expect(remote.state.balances(bob)).toEqual(active.core.sequencer.state.balances(bob));

    expect((await remote.submit({ type: 'UpdateMarket', market: 'ethusdtx', state: 'disabled' })).ok).toBe(
      true,
    );
    expect((await place(alice, 'sell')).code).toBe('market.market.not_enabled');
    // A replica started now reads the market, its state and fees from the tables the core wrote with the batch.
    const late = await replicaCore();
    expect(late.markets.get('ethusdtx')).toMatchObject({ amountPrecision: 2 });
    expect(late.sequencer.state.snapshot().config.markets).toContainEqual(
      expect.objectContaining({ id: 'ethusdtx', state: 'disabled' }),
    );
    late.sequencer.stop();
    expect(await auditLedger(db.pool)).toEqual([]);
  });

  it('fails commands within a second while NATS is unreachable, those waiting and those that come after', async () => {
    const own = await startNats();
    const nc = await connect({ servers: own.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    try {
      // No core listens on this server: the command waits, retried, as it would during a failover.
      const remote = new RemoteSequencer(nc);
      const waiting = remote.submit(credit(alice, 'eth', 1n));
      const failed = waiting.then(
        () => undefined,
        (err: Error) => ({ err, at: Date.now() }),
      );
      await new Promise((r) => setTimeout(r, 300));
      const killedAt = Date.now();
      await own.stop();
      const outcome = await failed;
      expect(outcome?.err.message).toMatch(/exchange core unavailable: connection to NATS lost/);
      expect((outcome?.at ?? Number.POSITIVE_INFINITY) - killedAt).toBeLessThan(1_000);
      expect(remote.available).toBe(false);
      const started = Date.now();
      await expect(remote.submit(credit(alice, 'eth', 1n))).rejects.toThrow(/no connection to NATS/);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await nc.close().catch(() => {});
    }
  });
});
