import { SEQUENCER_DEFAULTS } from '../../src/core/sequencer-types.ts';
import { BUILT_PROJECTOR } from './process.ts';

// A setup file of the integration projects (vitest.config.ts): every core a test starts in its own process runs
// its projector thread from the build, which the global setup made current (build.mjs, buildServerIfStale), as
// production does. From the TypeScript source the thread would first register tsx and compile its modules: about
// a second of CPU for each of the few hundred cores the suite starts (measured 1.5 against 0.4 s of CPU for an
// app's start and stop). The main thread's code stays the source under test.
SEQUENCER_DEFAULTS.projectorModule = BUILT_PROJECTOR;
