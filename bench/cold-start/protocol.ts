/** What a cold-start child tells the bench, and where: shared by the runner and the bench. */

/** The function name a sample runs under: in its Lambda context and its environment alike. */
export const SAMPLE_FUNCTION_NAME = 'cold-start';

/** The pipe the parent opens next to stdin, stdout and stderr: stdout belongs to the handler's logs. */
export const REPORT_FD = 3;

/** The child's own clock, from its process start. */
export interface RunnerReport {
  /** Bundle imported: module initialisation done. */
  importedAtMs: number;
  /** Response in hand. */
  answeredAtMs: number;
  /**
   * CPU time (user and system) of the child until then, Node's own start-up included: what the
   * bundle costs, far less disturbed by other processes on a shared machine than the elapsed time.
   */
  cpuMs: number;
}
