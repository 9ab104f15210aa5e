/** The engine is pure: no imports outside the package, no clock, randomness, I/O or async (docs/platform.md#exchange-core). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
const files = readdirSync(SRC).filter((f) => f.endsWith('.ts'));

it.each(files)('%s imports only sibling modules and uses no clock, randomness, I/O or async', (f) => {
  const text = readFileSync(join(SRC, f), 'utf8');
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  for (const m of code.matchAll(/\bfrom\s+'([^']+)'/g)) expect(m[1]).toMatch(/^\.\/[\w-]+\.ts$/);
  expect(code).not.toMatch(/\brequire\(|\bimport\(/);
  expect(code).not.toMatch(
    /\bDate\b|Math\.random|\bperformance\b|\bprocess\b|\bcrypto\b|setTimeout|setInterval/,
  );
  expect(code).not.toMatch(/\basync\b|\bawait\b|\bPromise\b/);
  expect(code).not.toMatch(/\bparseFloat\b|\btoFixed\b/);
  expect(text.split('\n').length).toBeLessThan(400);
});
