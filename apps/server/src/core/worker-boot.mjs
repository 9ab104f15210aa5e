// Starts a worker thread written in TypeScript: registers tsx (as the app's own start does), then loads the
// module named in workerData.entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
