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
