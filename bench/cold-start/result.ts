import type { Judged, Repeated } from '../stats';

/** What the cold-start measurement finds: JSON-serialisable, for docs/performance.json. */

export interface ColdStartRow {
  /** The function. */
  name: string;
  bundleKb: number;
  /** Its floor: the bundle that builds the same SDK clients and makes the same calls. */
  floor: { entry: string; kb: number };
  /** The child's CPU time until the response, in ms, each repetition's median over the repetitions; the budget's figure. */
  cpu: { functionMs: Repeated; floorMs: Repeated; ratio: Judged };
  /** Spawn-to-response as the bench clocks it, likewise. */
  elapsed: { functionMs: Repeated; floorMs: Repeated; ratio: Repeated };
}

export interface ColdStartResult {
  repetitions: number;
  /** Samples of each bundle per repetition, the function's and the floor's alternating. */
  samplesPerRepetition: number;
  rows: ColdStartRow[];
}
