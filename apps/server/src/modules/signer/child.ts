import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { entryPoint } from '../../paths.ts';

/**
 * Starts the signer as a child process of the app (the one-process default): its own process, on the loopback
 * `port` chosen for it, with a fresh token. The seed's key goes to the child only (SIGNER_KEY, or the development
 * key file the child reads); the app's environment keeps none of it. Its URL and token are known at once, so the
 * app composes itself while the child boots; `ready` settles when the child listens (or fails to start).
 */
export function startSignerChild(options: {
  databaseUrl: string;
  dataDir: string;
  port: number;
  log: { info(m: string): void; warn(m: string): void };
}): { url: string; token: string; ready: Promise<void>; stop(): Promise<void> } {
  const token = randomBytes(32).toString('base64url');
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  const child: ChildProcess = fork(fileURLToPath(entryPoint('signer-main')), [], {
    env: {
      ...env,
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDir,
      SIGNER_TOKEN: token,
      SIGNER_HOST: '127.0.0.1',
      SIGNER_PORT: String(options.port),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The app's own environment forgets the seed's key: nothing in this process can open the seed.
  delete process.env.SIGNER_KEY;
  const url = `http://127.0.0.1:${options.port}`;
  const ready = new Promise<void>((resolve, reject) => {
    child.once('message', (message: { signer?: string }) =>
      message.signer ? resolve() : reject(new Error('the signer did not start')),
    );
    child.once('exit', (code) => reject(new Error(`the signer exited (code ${code}) before it was ready`)));
  });
  child.on('exit', (code, signal) => {
    if (!stopping)
      options.log.warn(`signer: exited (code ${code}, signal ${signal}); signing stops until a restart`);
  });
  let stopping = false;
  return {
    url,
    token,
    ready,
    async stop() {
      stopping = true;
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
