import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { SECRETS_TABLE } from '../lambdas/definitions/tables';
import { FAN_OUT_BATCH_SIZE } from '../lambdas/definitions/webhooks';
import { tableName } from '../lambdas/store/dynamo';
import { webhookJobOf } from '../lambdas/webhooks/events';
import { localDynamoDbClient } from '../local/dynamodb-local';
import { startStreamPoller } from '../local/stream-poller';
import { STREAM_POLL_INTERVAL_MS } from '../local/webhook-pipeline';
import { api, createKey, createSecret } from '../test/support/api';
import { startWebhookReceiver } from '../test/support/webhook-receiver';
import { percentile, ratio } from './stats';

/**
 * Webhook latency in local mode: from an event's `timestamp` (taken just before the write that
 * commits it) to its signed delivery at a receiver on 127.0.0.1, through the stream, the fan-out,
 * the queue and the delivery function. The baseline, in the same run, is the first hop alone: a
 * second reader of the same stream, polling as local mode's does, timing when it sees each event.
 * The ratio shows what the pipeline adds to the wait for the stream.
 */

export interface WebhookLatencyResult {
  events: number;
  delivered: { p50: number; p99: number };
  streamSeen: { p50: number; p99: number };
  p50Ratio: number;
  p99Ratio: number;
}

const SECRETS_PER_KEY = 30;
const WAIT_FOR_EVENTS_MS = 60_000;

export async function measureWebhookLatency(baseUrl: string, dynamoDbEndpoint: string, secrets: number): Promise<WebhookLatencyResult> {
  const receiver = await startWebhookReceiver();
  const client = localDynamoDbClient(dynamoDbEndpoint);
  const seen: number[] = [];
  let streamReader: Awaited<ReturnType<typeof startStreamPoller>> | undefined;
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName(SECRETS_TABLE) }));
    if (!Table?.LatestStreamArn) throw new Error('the secrets table has no stream');
    streamReader = await startStreamPoller({
      endpoint: dynamoDbEndpoint,
      streamArn: Table.LatestStreamArn,
      functionName: 'bench-stream-reader',
      batchSize: FAN_OUT_BATCH_SIZE,
      retryAttempts: 0,
      timeoutMs: 30_000,
      startingPosition: 'LATEST',
      pollIntervalMs: STREAM_POLL_INTERVAL_MS,
      handler: async (event) => {
        const now = Date.now();
        for (const record of event.Records) {
          const job = webhookJobOf(record);
          if (job) seen.push(now - job.event.timestamp);
        }
      },
      log: () => undefined,
    });

    let key = '';
    for (let i = 0; i < secrets; i++) {
      if (i % SECRETS_PER_KEY === 0) key = (await createKey({ webhook: receiver.url('/bench') }, baseUrl)).key;
      const { id } = await createSecret(key, { data: 'YmVuY2g=', views: 2 }, baseUrl);
      for (let view = 0; view < 2; view++) await api('GET', `/secrets/${id}`, { key, baseUrl });
    }
    const received = await receiver.waitFor('/bench', secrets * 3, WAIT_FOR_EVENTS_MS);
    const delivered = received.map((request) => request.receivedAt - (JSON.parse(request.body) as { timestamp: number }).timestamp);
    const figures = (samples: number[]) => ({ p50: percentile(samples, 50), p99: percentile(samples, 99) });
    const deliveredFigures = figures(delivered);
    const seenFigures = figures(seen);
    return {
      events: delivered.length,
      delivered: deliveredFigures,
      streamSeen: seenFigures,
      p50Ratio: ratio(deliveredFigures.p50, seenFigures.p50),
      p99Ratio: ratio(deliveredFigures.p99, seenFigures.p99),
    };
  } finally {
    await streamReader?.stop();
    client.destroy();
    await receiver.stop();
  }
}
