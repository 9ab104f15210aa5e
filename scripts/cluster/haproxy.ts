import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** A server HAProxy may send to. */
export interface Backend {
  name: string;
  host: string;
  port: number;
}

/** What the balancer listens on and sends where. */
export interface BalancerLayout {
  host: string;
  port: number;
  /** The api processes: every HTTP request except the websocket streams. */
  api: Backend[];
  /** The ws processes: `/api/v2/ranger` (websocket upgrades). */
  ws: Backend[];
  /** Folder of the answers HAProxy gives itself (written by {@link startHaproxy}). */
  errorsDir: string;
}

const READY = '/api/v2/peatio/public/health/ready';

/**
 * The answers of the balancer itself, in the API's envelope: 502 when the server handling a request went away
 * (it may have been carried out: retry with the same `client_id`), 503 when no server is up, 504 when one did not
 * answer in time.
 */
const ERROR_ANSWERS: Record<number, string> = {
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function errorFile(status: number, reason: string): string {
  const body = '{"errors":["server.upstream_unavailable"]}';
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'content-type: application/json; charset=utf-8',
    'cache-control: no-store',
    'retry-after: 1',
    `content-length: ${body.length}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * An HAProxy configuration for the split deployment: round robin over the api processes and least connections
 * over the ws processes, each checked every second on its ready route (a standby or a process that lost its
 * database or NATS answers 503 there and gets no traffic). A request is sent again to another server only when the
 * connection to the first failed, i.e. when the first never received it: a POST that reached a server that then
 * died is answered 502 and never replayed elsewhere (the client retries it with its `client_id`).
 */
export function haproxyConfig(layout: BalancerLayout): string {
  const backend = (name: string, balance: string, pool: Backend[]) => `backend ${name}
  balance ${balance}
  option httpchk GET ${READY}
  http-check expect status 200
  default-server inter 1s fall 2 rise 1
${pool.map((b) => `  server ${b.name} ${b.host}:${b.port} check`).join('\n')}
`;
  const errors = Object.keys(ERROR_ANSWERS)
    .map((status) => `  errorfile ${status} ${path.join(layout.errorsDir, `${status}.http`)}`)
    .join('\n');
  return `global
  # Each connection takes two file descriptors (client and server): within a default limit of 20,000.
  maxconn 8000

defaults
  mode http
  option forwardfor
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # Websockets live long; they are tunnels once upgraded.
  timeout tunnel 1h
  # Only a connection that failed is tried again, on another server: a request a server received is never sent twice.
  retries 2
  retry-on conn-failure
  option redispatch 1
${errors}

frontend exchange
  bind ${layout.host}:${layout.port}
  acl streams path_beg /api/v2/ranger
  use_backend ws if streams
  default_backend api

${backend('api', 'roundrobin', layout.api)}
${backend('ws', 'leastconn', layout.ws)}`;
}

/**
 * The path of Debian's program `name` (in /usr/sbin or /usr/bin), installing its package from Debian when it is
 * missing (as root).
 * @throws Error when it cannot be installed.
 */
export function debianProgram(name: string): string {
  const found = [`/usr/sbin/${name}`, `/usr/bin/${name}`].find((p) => existsSync(p));
  if (found) return found;
  console.log(`${name} is missing: installing it from Debian (apt-get install -y ${name})`);
  const installed = spawnSync('apt-get', ['install', '-y', name], { stdio: 'inherit' });
  if (installed.status !== 0) throw new Error(`could not install ${name}; install it and run again`);
  return `/usr/sbin/${name}`;
}

/** Debian's haproxy, installed when missing. */
export function haproxyBinary(): string {
  return debianProgram('haproxy');
}

/**
 * Writes the configuration and the balancer's own answers into `dir`, checks the configuration (`haproxy -c`) and
 * runs HAProxy in the foreground until `stop`.
 */
export async function startHaproxy(
  layout: Omit<BalancerLayout, 'errorsDir'>,
  dir: string,
): Promise<{ child: ChildProcess; config: string; stop(): Promise<void> }> {
  const binary = haproxyBinary();
  const errorsDir = path.join(dir, 'errors');
  await mkdir(errorsDir, { recursive: true });
  for (const [status, reason] of Object.entries(ERROR_ANSWERS))
    await writeFile(path.join(errorsDir, `${status}.http`), errorFile(Number(status), reason));
  const config = path.join(dir, 'haproxy.cfg');
  await writeFile(config, haproxyConfig({ ...layout, errorsDir }));
  const checked = spawnSync(binary, ['-c', '-q', '-f', config], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`haproxy refused its configuration: ${checked.stderr}`);
  const child = spawn(binary, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(layout.host, layout.port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('haproxy did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    config,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
