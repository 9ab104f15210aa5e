import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../support/projector-thread-left.ts', import.meta.url));

describe('the projector thread', () => {
  it('does not keep the process up: a process that leaves one running still ends by itself', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    const ended = await new Promise<number | null | 'still running'>((resolve) => {
      const timer = setTimeout(() => resolve('still running'), 20_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    if (ended === 'still running') child.kill('SIGKILL');
    expect(out).toContain('thread failed');
    expect(out).toContain('left running');
    expect(ended).toBe(0);
  }, 30_000);
});
