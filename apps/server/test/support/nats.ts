import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.ts';

/** Debian's nats-server, when installed (the machine's services include it; CI installs it when missing). */
export const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find(
  (p) => spawnSync(p, ['--version']).status === 0,
);

/** A nats-server of a test's own, with JetStream, on a free loopback port. */
export interface TestNats {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts nats-server with JetStream in a temporary folder and waits until it takes connections. */
export async function startNats(): Promise<TestNats> {
  if (!NATS_SERVER) throw new Error('nats-server not found: apt-get install -y nats-server');
  const dir = await mkdtemp(path.join(tmpdir(), 'exchange-nats-'));
  const port = await freePort();
  const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('nats-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
