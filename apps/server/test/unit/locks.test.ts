import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIM_LOCK_FAMILIES } from '@exchange/chain-sim';
import { describe, expect, it } from 'vitest';
import { JOB_LOCK_SLOTS, jobLock, LOCK_FAMILIES, LOCKS, RESERVED_FAMILIES } from '../../src/db/locks.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const INT4_MAX = 2 ** 31 - 1;

/** Every TypeScript file under `dir`, relative to it. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
}

describe('the advisory-lock registry (db/locks.ts)', () => {
  it('gives every fixed lock its own key, none inside the background jobs’ range', () => {
    const keys = Object.values(LOCKS);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(Number.isSafeInteger(key) && key > 0).toBe(true);
    const jobs = [LOCKS.jobs, LOCKS.jobs + JOB_LOCK_SLOTS - 1];
    for (const [name, key] of Object.entries(LOCKS))
      if (name !== 'jobs')
        expect(key < jobs[0]! || key > jobs[1]!, `${name} inside the jobs' range`).toBe(true);
  });

  it('numbers the jobs inside their range and refuses one past it', () => {
    expect(jobLock(0)).toBe(LOCKS.jobs);
    expect(jobLock(JOB_LOCK_SLOTS - 1)).toBe(LOCKS.jobs + JOB_LOCK_SLOTS - 1);
    expect(() => jobLock(JOB_LOCK_SLOTS)).toThrow(/reserved job locks/);
    expect(() => jobLock(-1)).toThrow();
  });

  it('gives every family of locks, the reserved ones included, its own 32-bit first key', () => {
    const families = [...Object.values(LOCK_FAMILIES), ...Object.values(RESERVED_FAMILIES)];
    expect(new Set(families).size).toBe(families.length);
    for (const family of families)
      expect(Number.isInteger(family) && family > 0 && family <= INT4_MAX).toBe(true);
  });

  it('reserves exactly the families the chain simulators take', () => {
    expect(Object.values(SIM_LOCK_FAMILIES).sort()).toEqual(Object.values(RESERVED_FAMILIES).sort());
  });

  it('is the only server file that names an advisory-lock function or hashes a key', () => {
    const outside = sources(SRC)
      .filter((f) => f !== path.join('db', 'locks.ts') && !f.startsWith(`db${path.sep}migrations`))
      .filter((f) => /pg_(try_)?advisory|hashtext\(/.test(readFileSync(path.join(SRC, f), 'utf8')));
    expect(outside).toEqual([]);
  });
});
