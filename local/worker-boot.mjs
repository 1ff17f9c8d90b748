// Entry of local mode's worker threads: Node runs a worker's entry without the loader `tsx`
// gave the main thread, so this registers tsx here and then imports the TypeScript module.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
