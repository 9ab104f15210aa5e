import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { missing } from '../support/required.ts';

const UNIT = fileURLToPath(new URL('../../../../deploy/exchange.service', import.meta.url));
const SYSTEMD = spawnSync('systemd-analyze', ['--version']).status === 0;

describe.skipIf(missing(SYSTEMD, 'systemd-analyze'))('the systemd unit', () => {
  it('is a unit systemd accepts, without unknown keys', () => {
    const verified = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8' });
    expect(verified.stderr).toBe('');
    expect(verified.status).toBe(0);
  });
});
