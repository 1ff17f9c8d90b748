import '../support/env';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { LOG_MESSAGES } from '#lambdas/definitions/observability';
import type { ProxyHandler } from '#local/gateway';
import { invocationScopes, prepareInvocationScopes } from '#local/invocation-scope';
import { lambdaContext } from '#local/lambda-context';
import { mockDocumentClient } from '../support/dynamo';
import { apiEvent } from '../support/events';
import { printedLines } from '../support/printed';

const ddb = mockDocumentClient();

/** Two health checks in flight at once; the first one's DynamoDB call answers only after the second has finished. */
async function interleaved(handler: ProxyHandler): Promise<void> {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  ddb.on(GetCommand).callsFake(async () => {
    calls += 1;
    if (calls === 1) await gate;
    return {};
  });
  const call = (requestId: string) =>
    handler(apiEvent({ method: 'GET', path: '/health', requestId }), lambdaContext('local-health', `lambda-${requestId}`, 10_000));
  const first = call('rid-first');
  await call('rid-second');
  release();
  await first;
}

test('requests served side by side each log their own request id as correlation id', async () => {
  // As a local-mode process starts: no invoke store yet. Run in band, Jest hands this file the
  // globals of its own process, where the integration project's setup made one with its SDK calls.
  Object.assign(globalThis, { awslambda: {} });
  prepareInvocationScopes();
  // As local mode loads them (local/gateway.ts): the module first, then the scopes.
  const route = 'health';
  const { handler } = (await import(`../../../lambdas/routes/${route}`)) as { handler: ProxyHandler };
  const inScope = await invocationScopes();

  await interleaved(inScope(handler));

  const lines = printedLines().filter((line) => line.message === LOG_MESSAGES.request);
  expect(lines.map((line) => [line.correlation_id, line.function_request_id])).toEqual([
    ['rid-second', 'lambda-rid-second'],
    ['rid-first', 'lambda-rid-first'],
  ]);
});
