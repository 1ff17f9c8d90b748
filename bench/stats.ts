/** Order statistics and ratios for the benchmark's samples. */

/** The nearest-rank percentile of samples (ms); NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** To 0.01: how the report shows milliseconds and ratios. */
export const hundredths = (value: number): number => Math.round(value * 100) / 100;

/** Milliseconds since `started` (a performance.now() reading), to 0.01 ms. */
export const elapsedMs = (started: number): number => hundredths(performance.now() - started);

/** One figure over the bench's repetitions: the median that is judged, and the spread. */
export interface Repeated {
  median: number;
  min: number;
  max: number;
}

export function repeated(values: readonly number[]): Repeated {
  if (values.length === 0) throw new Error('no repetitions to summarise');
  return { median: hundredths(median(values)), min: hundredths(Math.min(...values)), max: hundredths(Math.max(...values)) };
}

/** A ratio to its floor, one per repetition, judged by its median. */
export interface Judged extends Repeated {
  budget: number;
  pass: boolean;
}

/** `ratios`: measured ÷ floor, one per repetition. */
export function judge(ratios: readonly number[], budget: number): Judged {
  const summary = repeated(ratios);
  return { ...summary, budget, pass: summary.median <= budget };
}

/** measured ÷ baseline, to 0.01. */
export const ratio = (measured: number, baseline: number): number => hundredths(measured / baseline);

/**
 * A measurement the bench repeats, its repetitions interleaved with those of the others so that
 * a burst of load on the shared machine falls on one repetition of each, not on all of one.
 */
export interface RepeatedMeasurement<TResult> {
  /** One more repetition: its measured side and its floor, alternating. */
  measureOnce(): Promise<void>;
  /** The figures of all repetitions so far. */
  result(): TResult;
  stop(): Promise<void>;
}
