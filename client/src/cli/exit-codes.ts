import { OnetimeError, RateLimitedError, ServiceError, type OnetimeErrorKind } from '../errors';

/** docs/client.md §3: 0 success; 1 usage or input; 2 the secret does not exist or is gone; 3 any other service error; 4 network. */
export const EXIT = { ok: 0, input: 1, gone: 2, service: 3, network: 4 } as const;

const EXIT_BY_KIND: Record<OnetimeErrorKind, number> = {
  input: EXIT.input,
  link: EXIT.input,
  'too-large': EXIT.input,
  gone: EXIT.gone,
  // The service refused the passphrase (403): no view used; the message says how many attempts are left.
  passphrase: EXIT.service,
  'rate-limited': EXIT.service,
  service: EXIT.service,
  network: EXIT.network,
};

/** What a failure prints (one line, no stack) and exits with. */
export function describeFailure(error: unknown): { line: string; exitCode: number } {
  if (!(error instanceof OnetimeError)) {
    const message = error instanceof Error ? error.message : String(error);
    return { line: oneLine(`unexpected error: ${message}`), exitCode: EXIT.input };
  }
  let line = error.message;
  if (error instanceof RateLimitedError) line += `; retry after ${new Date(error.retryAt).toISOString()}`;
  if (error instanceof ServiceError) line += ` (HTTP ${error.status}${error.requestId ? `, request ${error.requestId}` : ''})`;
  return { line: oneLine(line), exitCode: EXIT_BY_KIND[error.kind] };
}

const oneLine = (text: string): string => `onetime: ${text.replace(/\s*[\r\n]+\s*/g, ' ')}`;
