import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookOutbox } from '@exchange/provider-sims/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeed } from '../../src/db/change-feed.ts';
import { IDLE_RECHECK_MS } from '../../src/jobs/due-worker.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { within } from '../support/within.ts';

// A simulated provider's outbox sleeps while it has nothing due, and wakes when work is queued by any process
// (here: plain SQL on another connection, as the operator's command line does) or falls due.
let db: TestDatabase;
let feed: ChangeFeed;
let receiver: Server;
let outbox: WebhookOutbox;
const received: string[] = [];
let passes = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  feed = ChangeFeed.of(db.pool);
  await feed.start();
  await within(5_000, async () => feed.live);
  outbox = new WebhookOutbox({
    db: db.pool,
    table: 'kyc_sim_webhooks',
    name: 'test provider',
    webhookUrl: () => url,
    headers: () => ({ 'content-type': 'application/json' }),
    beforeSend: async () => {
      passes++;
    },
    feed,
    // Were it polling, it would look five times a second.
    pollMs: 200,
  });
  outbox.start();
});

afterAll(async () => {
  await outbox.stop();
  await feed.stop();
  await new Promise((resolve) => receiver.close(resolve));
  await db.drop();
});

const queue = (payload: string, dueInMs = 0) =>
  db.ownerPool.query(
    `insert into kyc_sim_webhooks (payload, next_attempt_at) values ($1, now() + make_interval(secs => $2))`,
    [payload, dueInMs / 1000],
  );

describe('a simulated provider with nothing to do', () => {
  it('does not look for work while none is due', async () => {
    await outbox.idle();
    // Asleep until the safety-net recheck, not polling every 200 ms: seen in the sleep it chose, not by waiting.
    expect(outbox.sleptMs).toBe(IDLE_RECHECK_MS);
    expect(passes).toBe(1);
  });

  it('sends a webhook queued by another connection at once', async () => {
    await queue('{"n":1}');
    // Nothing polls (above): only the notification of the insert can wake it.
    await within(1_000, async () => received.includes('{"n":1}'));
  });

  it('sends a webhook scheduled for later when it falls due, not before', async () => {
    const queued = Date.now();
    await queue('{"n":2}', 1_200);
    // Woken by the insert's notification, it sleeps until the webhook falls due (not the 30 s recheck, no polling).
    await within(1_000, async () => (outbox.sleptMs ?? 0) < IDLE_RECHECK_MS);
    expect(outbox.sleptMs).toBeGreaterThan(1_000);
    await within(3_000, async () => received.includes('{"n":2}'));
    expect(Date.now() - queued).toBeGreaterThanOrEqual(1_100);
    // The receiver has the webhook before the simulator records its answer: the record follows shortly.
    const delivered = async () =>
      (
        await db.pool.query<{ n: number }>(
          `select count(*)::int as n from kyc_sim_webhooks where delivered_at is not null`,
        )
      ).rows[0]?.n;
    await within(1_000, async () => (await delivered()) === 2);
  });
});
