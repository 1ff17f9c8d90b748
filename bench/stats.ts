import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * The bench's statistics: a median with its 95% bootstrap interval over the samples of one run
 * pooled, and a verdict that passes a budget the interval cannot tell from noise. Written here
 * rather than taken from a statistics package because it is these few lines; the seeded generator
 * (pure-rand) makes a verdict reproducible from the samples.
 */

/** The nearest-rank percentile of samples; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** To 0.01: how the report shows milliseconds and ratios. */
export const hundredths = (value: number): number => Math.round(value * 100) / 100;

/** A median with its 95% interval. */
export interface Interval {
  median: number;
  low: number;
  high: number;
}

const RESAMPLES = 2000;

/** The median of `samples` with a 95% bootstrap interval: the samples resampled with replacement, the 2.5th and 97.5th percentiles of their medians. */
export function medianInterval(samples: readonly number[], seed = 1): Interval {
  if (samples.length === 0) throw new Error('no samples to take a median of');
  const random = xoroshiro128plus(seed);
  const resampledMedian = (): number =>
    median(Array.from({ length: samples.length }, () => samples[uniformInt(random, 0, samples.length - 1)] as number));
  const medians = Array.from({ length: RESAMPLES }, resampledMedian);
  return { median: hundredths(median(samples)), low: hundredths(percentile(medians, 2.5)), high: hundredths(percentile(medians, 97.5)) };
}

/**
 * measured ÷ baseline over samples taken in pairs (sample i of each side back to back): the median
 * of the pairs' ratios with its interval. Pairing keeps a machine that speeds up or slows down
 * between pairs out of the ratio.
 */
export function pairedRatioInterval(measured: readonly number[], baseline: readonly number[], seed = 1): Interval {
  if (measured.length === 0 || measured.length !== baseline.length) throw new Error('pairs of samples needed: as many on each side, at least one');
  return medianInterval(
    measured.map((value, index) => value / (baseline[index] as number)),
    seed,
  );
}

/** measured − baseline over samples taken in pairs: the median of the pairs' differences with its interval. */
export function pairedDifferenceInterval(measured: readonly number[], baseline: readonly number[], seed = 1): Interval {
  if (measured.length === 0 || measured.length !== baseline.length) throw new Error('pairs of samples needed: as many on each side, at least one');
  return medianInterval(
    measured.map((value, index) => value - (baseline[index] as number)),
    seed,
  );
}

/** Pass when the whole interval is within the budget, miss when all of it is over; else the run cannot tell, and passes. */
export type Verdict = 'pass' | 'miss' | 'within noise';

export interface Judged extends Interval {
  budget: number;
  verdict: Verdict;
}

export function judge(interval: Interval, budget: number): Judged {
  const verdict = interval.high <= budget ? 'pass' : interval.low > budget ? 'miss' : 'within noise';
  return { ...interval, budget, verdict };
}
