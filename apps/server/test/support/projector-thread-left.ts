// A process that starts a projector thread and never stops it (its database cannot be reached, so the thread
// fails and waits): the process must still end by itself once its own work is done (projector-thread.test.ts).
import { ProjectorThread } from '../../src/core/projector-thread.ts';

const thread = new ProjectorThread(
  {
    url: 'postgres://nobody@127.0.0.1:1/nowhere',
    projectedSeq: 0,
    nextCommand: 0,
    term: 1,
    snapshotOnStart: false,
    snapshotEvery: { commands: 1_000_000, ms: 3_600_000 },
  },
  (err) => err,
  { warn: () => {} },
);
// The script's own work: waiting for the thread's answer (a timer keeps it up meanwhile, as a server would).
const busy = setInterval(() => {}, 1000);
await thread.ready.catch((err: Error) => console.log(`thread failed: ${err.message}`));
clearInterval(busy);
console.log('left running');
