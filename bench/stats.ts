import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Order statistics and ratios for the benchmark's samples. */

/** The nearest-rank percentile of samples already sorted. */
const sortedPercentile = (sorted: Float64Array, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;

/** The nearest-rank percentile of samples (ms); NaN for none. A typed array sorts numbers many times faster. */
export const percentile = (samples: readonly number[], p: number): number =>
  samples.length === 0 ? Number.NaN : sortedPercentile(Float64Array.from(samples).sort(), p);

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

/** A ratio with its 95% interval. */
export interface RatioInterval {
  ratio: number;
  low: number;
  high: number;
}

const RESAMPLES = 4000;

/**
 * measured ÷ baseline over samples taken in pairs (sample i of each side in the same round): the
 * median of the pairs' ratios, with a 95% bootstrap interval (the pairs resampled with
 * replacement, the 2.5th and 97.5th percentiles of their medians). Pairing keeps a machine that
 * speeds up or slows down between rounds out of the ratio: in one run, a floor's median went from
 * 223 to 153 ms between repetitions while each repetition's ratio held. Written here rather than
 * taken from a statistics package because it is these few lines over `percentile`; the seeded
 * generator (pure-rand) makes a report reproducible from the samples docs/performance.json keeps.
 */
export function pairedRatioInterval(measured: readonly number[], baseline: readonly number[], seed = 1): RatioInterval {
  if (measured.length === 0 || measured.length !== baseline.length) throw new Error('pairs of samples needed: as many on each side, at least one');
  const ratios = measured.map((value, index) => value / (baseline[index] as number));
  const random = xoroshiro128plus(seed);
  const resampledMedian = (): number =>
    median(Array.from({ length: ratios.length }, () => ratios[uniformInt(random, 0, ratios.length - 1)] as number));
  const medians = Array.from({ length: RESAMPLES }, resampledMedian);
  return {
    ratio: hundredths(median(ratios)),
    low: hundredths(percentile(medians, 2.5)),
    high: hundredths(percentile(medians, 97.5)),
  };
}

/** One round of samples on two sides, taken back to back so that both see the machine alike. */
export interface Round {
  measured: readonly number[];
  baseline: readonly number[];
}

/** Every sample of one side of the rounds, sorted. */
function sortedSide(rounds: readonly Round[], side: keyof Round): Float64Array {
  const all = new Float64Array(rounds.reduce((total, round) => total + round[side].length, 0));
  let filled = 0;
  for (const round of rounds) {
    all.set(round[side], filled);
    filled += round[side].length;
  }
  return all.sort();
}

/** Fewer than for pairs: each resample sorts thousands of latencies, and 1,000 still place a 95% interval's ends. */
const ROUND_RESAMPLES = 1000;

/**
 * measured ÷ baseline at each of `percentiles`, over all samples of the rounds, each with a 95%
 * bootstrap interval that resamples whole rounds (a cluster bootstrap). A percentile has no
 * per-round pairs to take a median of, as a cold start has: a round's 50 latencies hold no p99.
 * Both sides run in every round, so a machine that drifts between rounds shifts both sides' pooled
 * samples alike, and resampling rounds, not single requests, keeps the rounds' own spread in the
 * interval.
 */
export function roundsPercentileRatios(rounds: readonly Round[], percentiles: readonly number[], seed = 1): RatioInterval[] {
  if (rounds.length === 0 || rounds.some((round) => round.measured.length === 0 || round.baseline.length === 0)) {
    throw new Error('rounds with samples on both sides needed, at least one');
  }
  const ratiosOf = (chosen: readonly Round[]): number[] => {
    const measured = sortedSide(chosen, 'measured');
    const baseline = sortedSide(chosen, 'baseline');
    return percentiles.map((p) => sortedPercentile(measured, p) / sortedPercentile(baseline, p));
  };
  const random = xoroshiro128plus(seed);
  const resampled = Array.from({ length: ROUND_RESAMPLES }, () =>
    ratiosOf(Array.from({ length: rounds.length }, () => rounds[uniformInt(random, 0, rounds.length - 1)] as Round)),
  );
  return ratiosOf(rounds).map((estimate, index) => {
    const spread = resampled.map((ratios) => ratios[index] as number);
    return { ratio: hundredths(estimate), low: hundredths(percentile(spread, 2.5)), high: hundredths(percentile(spread, 97.5)) };
  });
}

/** What an interval says of a budget: pass only when all of it is within, miss when all of it is over. */
export type IntervalVerdict = 'pass' | 'miss' | 'cannot tell';

export interface JudgedInterval extends RatioInterval {
  budget: number;
  verdict: IntervalVerdict;
}

export function judgeInterval(interval: RatioInterval, budget: number): JudgedInterval {
  const verdict = interval.high <= budget ? 'pass' : interval.low > budget ? 'miss' : 'cannot tell';
  return { ...interval, budget, verdict };
}
