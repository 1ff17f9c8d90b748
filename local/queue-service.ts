import { SQSClient } from '@aws-sdk/client-sqs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOOPBACK } from './free-port';
import { LOCAL_ACCOUNT_ID, LOCAL_AWS_SETTINGS, localQueueArn, withoutSdkLogging } from './aws-account';
import { QueueError } from './queue/errors';
import { QueueJournal, type PersistedQueues } from './queue/journal';
import { LocalQueue } from './queue/queue';
import { queueRequestListener } from './queue/server';

/** SQS standard queues on this machine, for the handlers' real SQS client (SQS_ENDPOINT); on disk too given a directory (queue/journal.ts). */

export interface LocalQueueDefinition {
  name: string;
  visibilityTimeoutMs: number;
  retentionMs: number;
  deadLetter?: { name: string; maxReceiveCount: number };
}

export interface LocalQueueService {
  endpoint: string;
  /** `${endpoint}/${LOCAL_ACCOUNT_ID}/${name}`, as SQS forms queue URLs. */
  queueUrl(name: string): string;
  /** As the queue's QueueArn attribute reports it. */
  queueArn(name: string): string;
  stop(): Promise<void>;
}

/** An SQS client for the local queue service, which, like DynamoDB Local, takes any credentials. */
export const localSqsClient = (endpoint: string): SQSClient => withoutSdkLogging(new SQSClient({ endpoint, ...LOCAL_AWS_SETTINGS }));

/** The service's queues, found by name or by URL as SQS addresses them. */
export class QueueRegistry {
  private readonly queues = new Map<string, LocalQueue>();

  /** `kept`: the journal queues record their changes in, and what it held at start. */
  constructor(definitions: readonly LocalQueueDefinition[], kept?: { journal: QueueJournal; restored: PersistedQueues }) {
    // Dead-letter queues first, as the queues that redrive to them need them; they have none of their own.
    for (const definition of [...definitions].sort((a, b) => Number(!!a.deadLetter) - Number(!!b.deadLetter))) {
      const { name, visibilityTimeoutMs, retentionMs, deadLetter } = definition;
      if (this.queues.has(name)) throw new Error(`local queue ${name} is defined twice`);
      const target = deadLetter && { queue: this.byName(deadLetter.name), maxReceiveCount: deadLetter.maxReceiveCount };
      const queue = new LocalQueue(name, { visibilityTimeoutMs, retentionMs }, target, kept?.journal);
      queue.restore(kept?.restored.get(name)?.values() ?? []);
      this.queues.set(name, queue);
    }
  }

  byName(name: string): LocalQueue {
    const queue = this.queues.get(name);
    if (!queue) throw new QueueError('QueueDoesNotExist', `The specified queue does not exist: ${name}`);
    return queue;
  }

  /** Any host is accepted, as the SDK may send a queue URL whose host differs from the endpoint. */
  byUrl(queueUrl: string): LocalQueue {
    const path = URL.canParse(queueUrl) ? new URL(queueUrl).pathname : '';
    const [, account, name, ...rest] = path.split('/');
    if (account !== LOCAL_ACCOUNT_ID || !name || rest.length > 0) {
      throw new QueueError('QueueDoesNotExist', `The specified queue does not exist: ${queueUrl}`);
    }
    return this.byName(name);
  }
}

/** `directory`: where messages are kept across restarts; none keeps them in memory only. */
export async function startLocalQueueService(options: { queues: readonly LocalQueueDefinition[]; directory?: string }): Promise<LocalQueueService> {
  const kept = options.directory === undefined ? undefined : QueueJournal.open(options.directory);
  let registry: QueueRegistry;
  try {
    registry = new QueueRegistry(options.queues, kept);
  } catch (error) {
    kept?.journal.close();
    throw error;
  }
  const stopping = new AbortController();
  const server = createServer(queueRequestListener(registry, stopping.signal));
  await once(server.listen(0, LOOPBACK), 'listening');
  const endpoint = `http://${LOOPBACK}:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    queueUrl: (name) => `${endpoint}/${LOCAL_ACCOUNT_ID}/${registry.byName(name).name}`,
    queueArn: (name) => localQueueArn(registry.byName(name).name),
    stop: async () => {
      if (stopping.signal.aborted) return;
      stopping.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Clients polling at this moment see the connection drop, as they would if SQS went away.
      server.closeAllConnections();
      await closed;
      kept?.journal.close();
    },
  };
}
