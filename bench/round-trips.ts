import { USAGE_HEADERS, type DynamoDbUsage } from '#local/dynamodb-usage';
import { ROUND_TRIP_CASES, callBudgetOf, isBudgeted, usageOf } from '#test/support/round-trip-cases';

/** DynamoDB calls and consumed capacity per request (test/support/round-trip-cases.ts), read from local mode's usage headers. */

export interface RoundTripResult {
  name: string;
  payloadBytes: number;
  status: number;
  responseBytes: number;
  /** The handler's own time for this one request (local mode's x-local-handler-ms). */
  handlerMs: number;
  usage: DynamoDbUsage;
  budget: number | null;
  pass: boolean | null;
}

export async function measureRoundTrips(baseUrl: string): Promise<RoundTripResult[]> {
  const results: RoundTripResult[] = [];
  for (const roundTripCase of ROUND_TRIP_CASES) {
    const response = await roundTripCase.send(baseUrl);
    if (response.status >= 300) throw new Error(`${roundTripCase.name} answered ${response.status}: ${response.raw.slice(0, 200)}`);
    const usage = usageOf(response);
    const budgeted = isBudgeted(roundTripCase);
    results.push({
      name: roundTripCase.name,
      payloadBytes: roundTripCase.payloadBytes,
      status: response.status,
      responseBytes: Buffer.byteLength(response.raw),
      handlerMs: Number(response.headers[USAGE_HEADERS.handlerMs]),
      usage,
      budget: budgeted ? callBudgetOf(roundTripCase) : null,
      pass: budgeted ? usage.calls <= callBudgetOf(roundTripCase) : null,
    });
  }
  return results;
}
