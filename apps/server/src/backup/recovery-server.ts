import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../net/free-port.ts';
import { BackupError } from './manifest.ts';
import { embeddedPostgresBinary, postgresIds } from './tools.ts';

/** A PostgreSQL server run on a restored cluster until its recovery is done, and what it said. */
export interface RecoveryServer {
  port: number;
  /** The server's log so far. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts the embedded distribution's `postgres` on `clusterDir` (loopback, a free port, no archiving) with the
 * recovery `settings`, and waits until it accepts connections, i.e. until recovery is complete.
 * @throws BackupError with the server's own reason when it stops instead (e.g. the target was not reached).
 */
export async function startRecoveryServer(
  clusterDir: string,
  settings: string[],
  running: { stop?: () => Promise<void> } = {},
): Promise<RecoveryServer> {
  const port = await freePort();
  const child = spawn(
    await embeddedPostgresBinary(),
    [
      '-D',
      clusterDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'archive_mode=off',
      ...settings,
    ],
    { ...postgresIds(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // Known before it is ready, so that an interrupted restore can stop it during a long recovery.
  running.stop = () => stopServer(child);
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes('database system is ready to accept connections')) resolve();
    };
    child.stderr?.on('data', check);
    child.once('exit', (code, signal) =>
      reject(new BackupError(`recovery stopped: ${reason(output) ?? `postgres exited (${signal ?? code})`}`)),
    );
    child.once('error', (err) => reject(new BackupError(`cannot run postgres: ${err.message}`)));
  });
  return { port, log: () => output, stop: () => stopServer(child) };
}

/** The server's FATAL or PANIC message, which says why recovery stopped. */
function reason(output: string): string | undefined {
  const line = output
    .split('\n')
    .reverse()
    .find((l) => /(FATAL|PANIC):/.test(l));
  return line?.replace(/^.*?(FATAL|PANIC):\s*/, '');
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // SIGINT: a fast shutdown, with a checkpoint, so the app's next start needs no recovery.
  child.kill('SIGINT');
  await exited;
}
