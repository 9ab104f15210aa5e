import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A production install (`npm install --omit=dev`) must start, and carry no development chain (issue 25, item 7).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const server = path.join(root, 'apps/server');
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
/** Development chains and tools; tsx among them: production runs the built JavaScript (`npm start`, `npm run cli`). */
const DEV_ONLY = ['hardhat', 'solc', 'smtp-server', 'tsx'];

/**
 * The packages and files a module loads when it is imported: static `import … from` and `export … from`, not
 * `import type` (erased) and not `await import(…)` (loaded only on the path that asks for it).
 */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s+'([^']+)'/gms)) {
    if (m[1]) out.push(m[1]);
  }
  for (const m of text.matchAll(/^import\s+'([^']+)'/gm)) if (m[1]) out.push(m[1]);
  return out;
}

/** Every package reached from the server's entry point by static imports (workspace packages followed). */
function packagesReachedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [entry];
  const workspace: Record<string, string> = {
    '@exchange/shared': path.join(root, 'packages/shared/src/index.ts'),
    '@exchange/engine': path.join(root, 'packages/engine/src/index.ts'),
  };
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec);
        if (target.endsWith('.ts') && existsSync(target)) queue.push(target);
      } else if (workspace[spec]) {
        queue.push(workspace[spec]);
      } else if (!spec.startsWith('node:')) {
        packages.add(
          spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec),
        );
      }
    }
  }
  return packages;
}

describe('the production dependency tree', () => {
  it('does not list development chains and tools among the server dependencies', () => {
    const manifest = json(path.join(server, 'package.json'));
    for (const name of DEV_ONLY) {
      expect(Object.keys(manifest.dependencies), name).not.toContain(name);
    }
    const lock = json(path.join(root, 'package-lock.json'));
    for (const name of ['hardhat', 'solc', 'tsx'])
      expect(lock.packages[`node_modules/${name}`]?.dev, name).toBe(true);
  });

  it.each(['src/main.ts', 'src/cli.ts'])(
    'loads no development package from %s: the devnet is imported only when asked for',
    (entry) => {
      const reached = packagesReachedFrom(path.join(server, entry));
      expect(reached.size).toBeGreaterThan(10);
      for (const name of DEV_ONLY) expect(reached.has(name), name).toBe(false);
      const manifest = json(path.join(server, 'package.json'));
      const production = new Set([
        ...Object.keys(manifest.dependencies),
        ...Object.keys(json(path.join(root, 'packages/shared/package.json')).dependencies ?? {}),
      ]);
      const outside = [...reached].filter((name) => !production.has(name));
      expect(outside).toEqual([]);
    },
  );
});
