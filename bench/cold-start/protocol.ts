/** The function name a sample runs under: in its Lambda context and its environment alike. */
export const SAMPLE_FUNCTION_NAME = 'cold-start';

/**
 * The pipe on which the child reports its CPU time (user and system, ms) from its start until the
 * response was in hand: stdout belongs to the handler's logs.
 */
export const REPORT_FD = 3;

/** Why a handler's response is not a success (a non-2xx status, batch item failures), or undefined when it is one. */
export function failureOf(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null) return 'the handler returned no response object';
  if ('statusCode' in response) {
    const status = response.statusCode;
    if (typeof status === 'number' && status >= 200 && status < 300) return undefined;
    // Only a failure's body is shown: it is the service's {"error": ...}, never secret data.
    return `status ${String(status)} ${'body' in response ? String(response.body) : ''}`;
  }
  if ('batchItemFailures' in response) {
    const failures = response.batchItemFailures;
    return Array.isArray(failures) && failures.length === 0 ? undefined : 'batch item failures';
  }
  return 'the response has neither a statusCode nor batchItemFailures';
}
