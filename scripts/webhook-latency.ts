import { createKey, createSecret, api } from '../test/integration/support/api';
import { startLocalServer } from '../test/integration/support/local-server';
import { startWebhookReceiver } from '../test/support/webhook-receiver';

/**
 * `npm run webhook-latency [-- <secrets>]`: starts local mode (its own DynamoDB Local, loopback
 * webhooks allowed), creates secrets of 2 views and claims each twice, one after the other, and
 * reports how long each event took from its `timestamp` (taken just before the write that
 * commits it) to the receiver on 127.0.0.1.
 */

const DEFAULT_SECRETS = 30;
const WAIT_FOR_EVENTS_MS = 30_000;
const SECRETS_PER_KEY = 30;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main(): Promise<void> {
  const secrets = Number(process.argv[2] ?? DEFAULT_SECRETS);
  if (!Number.isInteger(secrets) || secrets < 1 || secrets > 500) {
    throw new Error('usage: npm run webhook-latency [-- <number of secrets, 1 to 500>]');
  }

  const receiver = await startWebhookReceiver();
  const server = await startLocalServer({ DYNAMODB_ENDPOINT: '', WEBHOOK_ALLOW_LOOPBACK: '1' });
  try {
    const { baseUrl } = server;
    let key = '';
    for (let i = 0; i < secrets; i++) {
      // A secret costs 3 requests: a fresh key before its 100-a-minute limit would slow the run.
      if (i % SECRETS_PER_KEY === 0) key = (await createKey({ webhook: receiver.url('/latency') }, baseUrl)).key;
      const { id } = await createSecret(key, { data: 'bGF0ZW5jeQ==', views: 2 }, baseUrl);
      for (let view = 0; view < 2; view++) await api('GET', `/secrets/${id}`, { key, baseUrl });
    }
    const received = await receiver.waitFor('/latency', secrets * 3, WAIT_FOR_EVENTS_MS);

    const byEvent = new Map<string, number[]>();
    for (const request of received) {
      const { event, timestamp } = JSON.parse(request.body) as { event: string; timestamp: number };
      byEvent.set(event, [...(byEvent.get(event) ?? []), request.receivedAt - timestamp]);
    }
    byEvent.set('all', [...byEvent.values()].flat());
    console.log(`event → receiver latency, ms (${secrets} secrets, ${received.length} events)`);
    for (const [event, latencies] of byEvent) {
      const sorted = latencies.sort((a, b) => a - b);
      const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(sorted, p));
      console.log(`${event.padEnd(15)} p50 ${p50}  p95 ${p95}  p99 ${p99}  max ${sorted.at(-1)}`);
    }
  } finally {
    await server.stop();
    await receiver.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
