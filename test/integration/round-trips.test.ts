import { ROUND_TRIP_CASES, callBudgetOf, isBudgeted, usageOf } from '../support/round-trip-cases';
import { testEnv } from '../support/environment';

/**
 * Each route's DynamoDB calls, counted by local mode on the real engine: a design change that adds
 * a round trip fails here, not only in `npm run bench`. Counting is deterministic; nothing is timed.
 */

describe.each(ROUND_TRIP_CASES.map((roundTripCase) => [roundTripCase.name, roundTripCase] as const))('%s', (_, roundTripCase) => {
  test(`makes ${roundTripCase.calls} DynamoDB call(s)${isBudgeted(roundTripCase) ? `, within the budget of ${callBudgetOf(roundTripCase)}` : ''}`, async () => {
    const response = await roundTripCase.send(testEnv('baseUrl'));
    expect(response.status).toBeLessThan(300);
    const { calls } = usageOf(response);
    expect(calls).toBe(roundTripCase.calls);
    if (isBudgeted(roundTripCase)) expect(calls).toBeLessThanOrEqual(callBudgetOf(roundTripCase));
  });
});
