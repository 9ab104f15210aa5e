/**
 * The CPU cost of one durable command: the bench's mixed stream through the sequencer of the built server (answered
 * after the journal commit, the tables projected behind by the projector thread), `callers` in a closed loop.
 * Prints commands/s and the CPU time per command of this process (all threads: the core's, the projector's, the
 * GC's), over the answered run and (with CATCH_UP=1) over the run plus the projector's catch-up, with the main
 * thread's share read from /proc (the figure the core's own work moves). On a shared machine the CPU per command is the figure to compare; commands/s moves with the load.
 *
 * `tsx --max-semi-space-size=32 scripts/bench/durable-cpu.ts [commands=300000] [callers=2000]`
 */
import { readdirSync, readFileSync } from 'node:fs';
import { genMixed } from '@exchange/engine/bench';
import type { Submitted } from '@exchange/server/bench';
import { benchDatabase } from './database.ts';
import { fundedCore } from './durable.ts';
import { rate } from './stats.ts';

const count = Number(process.argv[2] ?? 300_000);
const callers = Number(process.argv[3] ?? 2000);

/** CPU seconds of each thread of this process, by thread id (utime + stime from /proc, in clock ticks of 10 ms). */
function threadTicks(): Map<string, { name: string; ticks: number }> {
  const threads = new Map<string, { name: string; ticks: number }>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      threads.set(tid, { name, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads;
}

const cpuMicros = (u: NodeJS.CpuUsage) => u.user + u.system;

const db = await benchDatabase();
try {
  const { pool } = await db.fresh();
  const stream = genMixed(count, 42).cmds.map(({ at: _at, ...c }) => c as Submitted);
  const core = await fundedCore(pool, { maxBatch: callers / 2 });
  await core.sequencer.drain();
  const ticks0 = threadTicks();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  const caller = async () => {
    while (next < stream.length) {
      await core.sequencer.submit(stream[next++] as Submitted, undefined, { ack: 'journal' });
    }
  };
  await Promise.all(Array.from({ length: callers }, caller));
  const answered = performance.now();
  const cpuAnswered = process.cpuUsage(cpu0);
  const ticks1 = threadTicks();
  // The projector's catch-up (minutes on a loaded machine) only with CATCH_UP=1.
  if (process.env.CATCH_UP === '1') await core.sequencer.drain();
  const caughtUp = performance.now();
  const cpuAll = process.cpuUsage(cpu0);
  await core.sequencer.tables.stop(new Error('bench over'));
  await pool.end();

  const byName = new Map<string, number>();
  let main = 0;
  for (const [tid, t] of ticks1) {
    const used = t.ticks - (ticks0.get(tid)?.ticks ?? 0);
    if (tid === String(process.pid)) main += used;
    else byName.set(t.name, (byName.get(t.name) ?? 0) + used);
  }
  const perCommand = (ticks: number) => ((ticks * 10_000) / count).toFixed(1);
  const result = {
    commands: count,
    callers,
    commandsPerSecond: Math.round(count / ((answered - started) / 1000)),
    cpuMicrosPerCommand: Number((cpuMicros(cpuAnswered) / count).toFixed(2)),
    mainThreadMicrosPerCommand: Number(perCommand(main)),
    cpuMicrosPerCommandWithCatchUp: Number((cpuMicros(cpuAll) / count).toFixed(2)),
    catchUpMs: Math.round(caughtUp - answered),
  };
  const catchUp =
    process.env.CATCH_UP === '1'
      ? `, ${result.cpuMicrosPerCommandWithCatchUp} µs/command with the projector's catch-up (${result.catchUpMs} ms)`
      : '';
  console.log(
    `durable (journal ack), ${rate(count)} commands, ${callers} callers: ${rate(result.commandsPerSecond)} commands/s, ` +
      `CPU ${result.cpuMicrosPerCommand} µs/command while answering${catchUp}`,
  );
  console.log(
    `  per thread while answering (µs/command, 10 ms ticks): main ${perCommand(main)}, ${[...byName]
      .filter(([, t]) => t > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([name, t]) => `${name} ${perCommand(t)}`)
      .join(', ')}`,
  );
  console.log(`RESULT ${JSON.stringify(result)}`);
} finally {
  await db.close();
}
