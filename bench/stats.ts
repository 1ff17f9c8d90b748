import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Medians with 95% bootstrap intervals (seeded: reproducible from the samples), and verdicts that pass what noise hides. */

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
export function medianInterval(samples: readonly number[]): Interval {
  if (samples.length === 0) throw new Error('no samples to take a median of');
  const random = xoroshiro128plus(1);
  const resampledMedian = (): number =>
    median(Array.from({ length: samples.length }, () => samples[uniformInt(random, 0, samples.length - 1)] as number));
  const medians = Array.from({ length: RESAMPLES }, resampledMedian);
  return { median: hundredths(median(samples)), low: hundredths(percentile(medians, 2.5)), high: hundredths(percentile(medians, 97.5)) };
}

/** Samples taken in pairs (back to back), each pair combined (a ratio, a difference): the median with its interval. */
export function pairedInterval(
  measured: readonly number[],
  baseline: readonly number[],
  combine: (measured: number, baseline: number) => number,
): Interval {
  if (measured.length === 0 || measured.length !== baseline.length) throw new Error('pairs of samples needed: as many on each side, at least one');
  return medianInterval(measured.map((value, index) => combine(value, baseline[index] as number)));
}
export const ratioOf = (measured: number, baseline: number): number => measured / baseline;
export const differenceOf = (measured: number, baseline: number): number => measured - baseline;

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
