import { SQSClient } from '@aws-sdk/client-sqs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withoutSdkLogging } from './sdk-client';
import { LOOPBACK } from './free-port';
import { LOCAL_AWS_SETTINGS } from './aws-account';
import { QueueJournal } from './queue/journal';
import { localQueueArn, QueueRegistry, type LocalQueueDefinition } from './queue/registry';
import { queueRequestListener } from './queue/server';

export type { LocalQueueDefinition } from './queue/registry';

/**
 * SQS on this machine, for local mode: the handlers' real @aws-sdk/client-sqs talks to it through
 * SQS_ENDPOINT, as DYNAMODB_ENDPOINT points them at DynamoDB Local. Standard queues only, in memory,
 * and on disk too when given a directory (queue/journal.ts).
 */

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

export interface LocalQueueServiceOptions {
  /** 0 or absent: any free port. */
  port?: number;
  queues: readonly LocalQueueDefinition[];
  /** Where messages are kept across restarts; none keeps them in memory only. */
  directory?: string;
}

export async function startLocalQueueService(options: LocalQueueServiceOptions): Promise<LocalQueueService> {
  const server = createServer();
  await once(server.listen(options.port ?? 0, LOOPBACK), 'listening');
  const endpoint = `http://${LOOPBACK}:${(server.address() as AddressInfo).port}`;
  let registry: QueueRegistry;
  let journal: QueueJournal | undefined;
  try {
    const kept = options.directory === undefined ? undefined : QueueJournal.open(options.directory);
    journal = kept?.journal;
    registry = new QueueRegistry(endpoint, options.queues, kept);
  } catch (error) {
    journal?.close();
    server.close();
    throw error;
  }
  const stopping = new AbortController();
  server.on('request', queueRequestListener(registry, stopping.signal));

  return {
    endpoint,
    queueUrl: (name) => registry.urlOf(name),
    queueArn: (name) => localQueueArn(registry.byName(name).name),
    stop: async () => {
      if (stopping.signal.aborted) return;
      stopping.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Clients polling at this moment see the connection drop, as they would if SQS went away.
      server.closeAllConnections();
      await closed;
      journal?.close();
    },
  };
}
