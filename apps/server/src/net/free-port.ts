import { readFileSync } from 'node:fs';
import net from 'node:net';

/** Ports already handed out by this process: never twice, even after their first user let go. */
const given = new Set<number>();

/**
 * The lowest port the OS hands to outgoing connections (Linux's `ip_local_port_range`; 32768 elsewhere). A port
 * the OS picks for us (port 0) comes from that range, and between our check and the server's bind an outgoing
 * connection (a database client, a fetch) may take it: below it, only listeners compete.
 */
function ephemeralStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

const LOW = 10_000;
const HIGH = Math.max(LOW + 1000, ephemeralStart());

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free loopback port for a server this process starts (a recovery server, a test app): chosen at random
 * below the OS's range for outgoing connections, checked free, and not given out before by this process.
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (given.has(port) || !(await bindable(port))) continue;
    given.add(port);
    return port;
  }
  throw new Error(`no free loopback port found between ${LOW} and ${HIGH}`);
}
