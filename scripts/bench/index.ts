import { clusterBench } from './cluster.ts';
import { benchDatabase } from './database.ts';
import { durableBench } from './durable.ts';
import { edgeBench } from './edge.ts';
import { httpBench } from './http.ts';
import { idleBench } from './idle.ts';
import { startBench } from './start.ts';
import { wsBench } from './ws.ts';

/** `npm run bench`: our figures and the peer's side by side, from one run. Pass section names to run only those. */
const only = new Set(process.argv.slice(2));
const want = (name: string) => only.size === 0 || only.has(name);

import { availableParallelism, loadavg } from 'node:os';

console.log(
  `exchange benchmarks on ${process.platform}/${process.arch}, node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at start (the machine may be shared)`,
);
if (want('engine')) {
  const { runEngineBench } = await import('@exchange/engine/bench');
  await runEngineBench({ print: true });
}
if (want('start')) await startBench();
const db = await benchDatabase();
try {
  if (want('durable')) await durableBench(db.fresh, Number(process.env.BENCH_ORDERS ?? 100_000));
  if (want('http')) await httpBench(db.fresh);
  if (want('edge')) await edgeBench(db.fresh);
  if (want('ws')) await wsBench(db.fresh);
  if (want('cluster')) await clusterBench(db.fresh);
  if (want('idle')) await idleBench(db.fresh);
} finally {
  await db.close();
}
