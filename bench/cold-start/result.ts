/** What the cold-start measurement finds: JSON-serialisable, for docs/performance.json. */

/** One bundle's samples: spawn-to-response as the bench clocks it, and where the child saw the time go. */
export interface ColdStartTimes {
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Median, on the child's clock from its process start: the bundle imported (init done)... */
  importedAtMs: number;
  /** ...and the response in hand. */
  answeredAtMs: number;
}

export interface ColdStartRow {
  handler: string;
  bundleKb: number;
  baseline: ColdStartTimes;
  measured: ColdStartTimes;
  /** measured.medianMs ÷ baseline.medianMs */
  ratio: number;
  budget: number;
  pass: boolean;
}

export interface HandlerColdStart extends ColdStartRow {
  /** ratio ÷ firstCall.ratio: what the function costs beyond the first DynamoDB call it cannot avoid. */
  ratioToFirstCall: number;
}

export interface ColdStartResult {
  runs: number;
  budget: number;
  baselineBundleKb: number;
  /** The baseline plus one GetItem, timed like a function: its ratio is the floor of every function's. */
  firstCall: ColdStartRow;
  handlers: HandlerColdStart[];
}
