/**
 * The projector alone, phase by phase: the bench's mixed stream is cut into journal batches, encoded as the journal
 * holds them, and projected into a fresh database the way the projector's thread does it (decode, apply to the
 * replica, build the statements, write them in one transaction per unit of `unit` commands). Prints each phase's
 * wall time, the commands/s of the whole, and the CPU time per 1,000 commands of this process and of the
 * PostgreSQL backend that wrote (read from /proc: a figure that a shared machine disturbs less than the wall
 * time). `EXPLAIN=1` prints the plan of the third unit's statements, with buffers and WAL, instead of writing it
 * plainly. `MODE=projector` feeds the batches to the Projector itself instead, one per turn of the event loop as
 * the thread receives them, and prints its commands/s and transactions.
 *
 * `tsx scripts/bench/projector-alone.ts [commands=200000] [batch=1000] [unit=20000]`
 */
import { readFileSync } from 'node:fs';
import { Engine } from '@exchange/engine';
import { genMixed } from '@exchange/engine/bench';
import {
  applyAll,
  decodeBatch,
  encodeBatch,
  type JournalBatch,
  loadEngineConfig,
  loadEngineState,
  Projector,
  projectionStatements,
  type Submitted,
  type Tx,
  Units,
  writeProjection,
} from '@exchange/server/bench';
import { benchDatabase } from './database.ts';
import { fundedCore } from './durable.ts';

const count = Number(process.argv[2] ?? 200_000);
const batchSize = Number(process.argv[3] ?? 1000);
const unitSize = Number(process.argv[4] ?? 20_000);

const db = await benchDatabase();
try {
  const { pool } = await db.fresh();
  const core = await fundedCore(pool);
  await core.sequencer.drain();
  await core.sequencer.drain();
  await core.sequencer.tables.stop(new Error('set up'));
  const position = (
    await pool.query(
      'select p.projected_seq, p.term, e.next_command from core_projection p, engine_state e where p.id = 1',
    )
  ).rows[0];
  let seq = Number(position.projected_seq);
  let nextCommand = Number(position.next_command);
  const term = Number(position.term);

  const units = new Units(new Map(), new Map());
  const { config, markets } = await loadEngineConfig(pool);
  units.replace(markets, config.currencies);
  const engine = new Engine(config, (await loadEngineState(pool, units)).state);

  // The journal's texts, as the core thread sends them.
  const stream = genMixed(count, 42).cmds;
  const bodies: { seq: number; firstCommand: number; body: string }[] = [];
  for (let i = 0; i < stream.length; i += batchSize) {
    const at = Date.now();
    const commands = stream.slice(i, i + batchSize).map((c) => ({ ...(c as Submitted), at }));
    bodies.push({ seq: ++seq, firstCommand: nextCommand, body: encodeBatch(commands as never, at) });
    nextCommand += commands.length;
  }
  const t = { decode: 0, apply: 0, build: 0, write: 0, writeJs: 0 };
  let from = Number(position.projected_seq);
  const client = await pool.connect();
  const backend = Number((await client.query('select pg_backend_pid() as pid')).rows[0].pid);
  const backendCpu = () => {
    const fields = readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  const jsCpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const pgStart = backendCpu();
  const jsStart = jsCpu();
  const started = performance.now();
  let unit: JournalBatch[] = [];
  let units_ = 0;
  let inUnit = 0;
  const flush = async () => {
    if (unit.length === 0) return;
    const to = (unit[unit.length - 1] as JournalBatch).seq;
    let t0 = performance.now();
    const statements = projectionStatements(units, unit, { from, to, term });
    t.build += performance.now() - t0;
    t0 = performance.now();
    const c0 = jsCpu();
    if (process.env.BUILD_ONLY) {
      // nothing written: the build's own cost
    } else if (process.env.EXPLAIN && ++units_ === 3) {
      await client.query('begin; set local synchronous_commit = off');
      await client.query('set plan_cache_mode = force_custom_plan');
      for (const st of statements) {
        const plan = await client.query(`explain (analyze, buffers, wal) ${st.text}`, st.values);
        console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
      await client.query('commit');
    } else await writeProjection(client as unknown as Tx, statements);
    t.write += performance.now() - t0;
    t.writeJs += jsCpu() - c0;
    from = to;
    unit = [];
    inUnit = 0;
  };
  if (process.env.MODE === 'projector') {
    // As the projector's thread runs: each batch decoded and applied as it arrives (one per turn of the event
    // loop, so the writes interleave), handed to a Projector, which writes units of what has piled up.
    const projector = new Projector(
      pool,
      units,
      () => term,
      from,
      (err) => err,
    );
    let writes = 0;
    projector.onTimed(() => writes++);
    const jsStart2 = jsCpu();
    const pgStart2 = backendCpu();
    const t0 = performance.now();
    for (const b of bodies) {
      const { commands } = decodeBatch(b.body);
      const results = applyAll(engine, units, commands);
      projector.add({ seq: b.seq, firstCommand: b.firstCommand, commands, results });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await projector.whenProjected(seq);
    const ms = performance.now() - t0;
    console.log(
      `projector alone (Projector class): ${count} commands in batches of ${batchSize}: ${Math.round(count / (ms / 1000))} commands/s in ${writes} transactions; node cpu ${(((jsCpu() - jsStart2) * 1000) / count).toFixed(1)} ms per 1,000 (backend of the pool not measured: ${(((backendCpu() - pgStart2) * 1000) / count).toFixed(1)})`,
    );
    await projector.stop(new Error('done'));
  } else {
    for (const b of bodies) {
      let t0 = performance.now();
      const { commands } = decodeBatch(b.body);
      t.decode += performance.now() - t0;
      t0 = performance.now();
      const results = applyAll(engine, units, commands);
      t.apply += performance.now() - t0;
      unit.push({ seq: b.seq, firstCommand: b.firstCommand, commands, results });
      inUnit += commands.length;
      if (inUnit >= unitSize) await flush();
    }
    await flush();
  }
  client.release();
  if (process.env.MODE !== 'projector') {
    const total = performance.now() - started;
    const pgCpu = backendCpu() - pgStart;
    const js = jsCpu() - jsStart;
    const per = (ms: number) => `${Math.round(ms)} ms (${((ms / total) * 100).toFixed(0)}%)`;
    console.log(
      `projector alone: ${count} commands in batches of ${batchSize}, units of ${unitSize}: ${Math.round(count / (total / 1000))} commands/s; decode ${per(t.decode)}, apply ${per(t.apply)}, build ${per(t.build)}, write ${per(t.write)}`,
    );
    const rows = (
      await pool.query(
        `select (select count(*) from orders) o, (select count(*) from trades) t, (select count(*) from ledger_postings) l`,
      )
    ).rows[0];
    const perK = (ms: number) => ((ms * 1000) / count).toFixed(1);
    console.log(
      `cpu per 1,000 commands: node ${perK(js)} ms (of it in the write's await: ${perK(t.writeJs)}), postgres backend ${perK(pgCpu)} ms; wall: decode ${perK(t.decode)}, apply ${perK(t.apply)}, build ${perK(t.build)}, write ${perK(t.write)}`,
    );
    console.log(`rows: orders ${rows.o}, trades ${rows.t}, ledger ${rows.l}`);
  }
  await pool.end();
} finally {
  await db.close();
}
