/**
 * Drives orders through the sequencer as fast as it can, printing "ack <orderId>" for every order the core answered
 * as the request path is answered: once it is in the journal (the tables follow behind).
 * Used by the crash test, which kills this process with SIGKILL mid-stream. Usage: crash-driver <database-url> <user ids>
 */
import { startCore } from '../../src/core/index.ts';
import { createPool } from '../../src/db/pool.ts';

const [url, userList] = process.argv.slice(2);
if (!url || !userList) throw new Error('usage: crash-driver <database-url> <comma-separated user ids>');
const users = userList.split(',').map(Number);
const pool = createPool(url, 4);
const core = await startCore(pool, {}, () => process.exit(70));
let n = 0;
const inFlight = 400;

async function worker(): Promise<void> {
  for (;;) {
    const i = n++;
    const side = i % 2 === 0 ? 'buy' : 'sell';
    const result = await core.sequencer.submit(
      {
        type: 'PlaceOrder',
        user: users[i % users.length] as number,
        market: 'ethbtc',
        side,
        ordType: 'limit',
        price: 5000n + BigInt((i * 7919) % 41) - 20n,
        volume: 1000n + BigInt(i % 5) * 1000n,
      },
      undefined,
      { ack: 'journal' },
    );
    if (result.ok && result.orderId !== null) process.stdout.write(`ack ${result.orderId}\n`);
  }
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: inFlight }, () => worker()));
