import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startingMetrics } from '../../src/modules/metrics/registry.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { missing } from '../support/required.ts';

// The example alert rules and the Grafana dashboard shipped in deploy/ ask only for series the app serves.
const DEPLOY = fileURLToPath(new URL('../../../../deploy/', import.meta.url));
const RULES = path.join(DEPLOY, 'prometheus', 'alerts.yml');
const DASHBOARD = path.join(DEPLOY, 'grafana', 'exchange-dashboard.json');
const PROMTOOL = spawnSync('promtool', ['--version']).status === 0;

let t: TestApp;
let backups = '';
beforeAll(async () => {
  backups = await mkdtemp(path.join(tmpdir(), 'exchange-metrics-backups-'));
  t = await createTestApp({}, { BACKUP_DIR: backups });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(backups, { recursive: true, force: true });
});

/** The metric names in PromQL expressions: ours and Node's (Prometheus's own `up` aside). */
function metricNames(exprs: string[]): Set<string> {
  const names = new Set<string>();
  for (const expr of exprs)
    for (const match of expr.matchAll(/\b((?:exchange|http|process|nodejs)_[a-z0-9_]+)/g))
      names.add(match[1] as string);
  return names;
}

/** The series names a scrape offers (a histogram's _bucket, _sum and _count too). */
function served(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [name, type] = [match[1] as string, match[2]];
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

describe('the shipped alert rules and dashboard', () => {
  it.skipIf(missing(PROMTOOL, 'promtool'))('pass promtool check rules', () => {
    const checked = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' });
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('use only series that an app or a standby serves', async () => {
    const rules = await readFile(RULES, 'utf8');
    const ruleExprs = [...rules.matchAll(/^\s*expr: (.+)$/gm)].map((m) => m[1] as string);
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
      panels: { targets: { expr: string }[] }[];
    };
    const panelExprs = dashboard.panels.flatMap((p) => p.targets.map((target) => target.expr));
    expect(ruleExprs.length).toBeGreaterThan(10);
    expect(panelExprs.length).toBeGreaterThan(10);
    const offered = new Set([
      ...served(await t.app.metrics.metrics()),
      ...served(await startingMetrics().metrics()),
    ]);
    const missing = [...metricNames([...ruleExprs, ...panelExprs])].filter((name) => !offered.has(name));
    expect(missing).toEqual([]);
  });
});
