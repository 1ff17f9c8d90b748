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
  /**
   * Its house floor: the floor inside what the house rules give every function of its kind
   * (middy, Powertools, zod for a body, the batch processor for a pipeline), CPU time as above.
   */
  house: { entry: string; kb: number; floorMs: Repeated; ratio: Judged };
  /** Every sample's CPU time, in ms, all repetitions in order: what docs/performance.json pools over the runs. */
  samples: CpuSamples<'function' | 'floor' | 'houseFloor'>;
}

export type CpuSamples<Side extends string> = Record<Side, number[]>;

/**
 * An A/A row: one floor against a second build of itself, sampled as a row is. Their ratio is 1 in
 * truth, so how far it strays is what the machine can resolve that day.
 */
export interface ColdStartAaRow {
  /** The function whose floor is built twice. */
  name: string;
  floor: string;
  samples: CpuSamples<'a' | 'b'>;
}

export interface ColdStartResult {
  repetitions: number;
  /** Samples of each bundle per repetition, the function's and the floor's alternating. */
  samplesPerRepetition: number;
  /** Attempts that failed and were taken again, the untimed first samples' included. */
  retriedSamples: number;
  rows: ColdStartRow[];
  aa: ColdStartAaRow;
}
