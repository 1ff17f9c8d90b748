import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SECRET_ID_BYTES } from '#contract/limits';
import { PIPELINE_ENTRIES, QUEUES } from '#lambdas/definitions/webhooks';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { LOCAL_ACCOUNT_ID, LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { lambdaContext } from '#local/lambda-context';
import { startWebhookReceiver } from '#test/support/webhook-receiver';
import { buildBundle } from './cold-start/bundles';
import { headInsertEvent, jobMessageEvent } from './cold-start/events';
import { unsavedSecretHead } from './cold-start/fixtures';
import { freshKey } from './fixtures';
import { elapsedMs, median } from './stats';

/**
 * Warm handler time of the two pipeline functions, invoked in this process against DynamoDB
 * Local, for the cost model: the fan-out for a one-record batch (a new secret of a key without a
 * webhook: one BatchGetItem), and the delivery of one job to a receiver on 127.0.0.1 that answers
 * at once. The first third of the invocations warm the clients and the JIT and are not counted:
 * Lambda bills warm ones far more often.
 */

const CONTEXT_TIMEOUT_MS = 30_000;
type FanOutHandler = (typeof import('#lambdas/webhooks/handlers/webhook-fan-out'))['handler'];
type DeliveryHandler = (typeof import('#lambdas/webhooks/handlers/webhook-delivery'))['handler'];

/**
 * The handler as the stack bundles it (lib/bundling.ts), imported into this process: Middy ships
 * ESM only, which this process's CommonJS loader cannot import from the sources (the bench runs
 * without tsx's import condition, under which mime-db's JSON fails to load).
 */
async function importBundledHandler<Handler>(entry: string): Promise<Handler> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pipeline-'));
  try {
    const { file } = await buildBundle(entry, outdir);
    const loaded = (await import(pathToFileURL(file).href)) as { handler: Handler };
    return loaded.handler;
  } finally {
    // Loaded modules stay in memory: the bundle's file is needed no longer.
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

const warmMedian = (times: readonly number[]): number => median(times.slice(Math.floor(times.length / 3)));

export async function measureFanOutMs(invocations: number): Promise<number> {
  const handler = await importBundledHandler<FanOutHandler>(PIPELINE_ENTRIES.fanOut);
  const owner = await freshKey();
  const times: number[] = [];
  for (let i = 0; i < invocations; i++) {
    const event = headInsertEvent(unsavedSecretHead(owner));
    const started = performance.now();
    const response = await handler(event, lambdaContext('bench-fan-out', `bench-${i}`, CONTEXT_TIMEOUT_MS));
    times.push(elapsedMs(started));
    if (response.batchItemFailures.length > 0) throw new Error('the fan-out reported a failure');
  }
  return warmMedian(times);
}

/** The delivery function logs each attempt to stdout, as on Lambda: `invocations` lines of the bench's output. */
export async function measureDeliveryMs(invocations: number): Promise<number> {
  const handler = await importBundledHandler<DeliveryHandler>(PIPELINE_ENTRIES.delivery);
  const receiver = await startWebhookReceiver();
  try {
    const owner = await freshKey(receiver.url('/bench-delivery'));
    const times: number[] = [];
    for (let i = 0; i < invocations; i++) {
      const event = jobMessageEvent(
        {
          eventId: `evt_${randomBytes(16).toString('hex')}`,
          owner: owner.keyHash,
          event: { event: 'secret.created', timestamp: Date.now(), data: { id: randomUrlSafeId(SECRET_ID_BYTES) } },
        },
        `arn:aws:sqs:${LOCAL_AWS_SETTINGS.region}:${LOCAL_ACCOUNT_ID}:${QUEUES.jobs.id}`,
      );
      const started = performance.now();
      const response = await handler(event, lambdaContext('bench-delivery', `bench-${i}`, CONTEXT_TIMEOUT_MS));
      times.push(elapsedMs(started));
      if (response.batchItemFailures.length > 0) throw new Error('the delivery reported a failure');
    }
    if (receiver.received('/bench-delivery').length !== invocations) throw new Error('the receiver missed deliveries');
    return warmMedian(times);
  } finally {
    await receiver.stop();
  }
}
