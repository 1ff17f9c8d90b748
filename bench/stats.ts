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

/** measured ÷ baseline, rounded as the report shows it. */
export const ratio = (measured: number, baseline: number): number => hundredths(measured / baseline);

export interface Verdict {
  ratio: number;
  budget: number;
  pass: boolean;
}

export const verdict = (measured: number, baseline: number, budget: number): Verdict => {
  const value = ratio(measured, baseline);
  return { ratio: value, budget, pass: value <= budget };
};

/** Milliseconds since `started` (a performance.now() reading), to 0.01 ms. */
export const elapsedMs = (started: number): number => hundredths(performance.now() - started);
