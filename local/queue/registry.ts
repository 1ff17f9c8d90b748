import { LOCAL_ACCOUNT_ID, LOCAL_AWS_SETTINGS } from '../aws-account';
import { QueueError } from './errors';
import type { PersistedQueues, QueueJournal } from './journal';
import { LocalQueue } from './queue';

export interface LocalQueueDefinition {
  name: string;
  visibilityTimeoutMs: number;
  retentionMs: number;
  deadLetter?: { name: string; maxReceiveCount: number };
}

export const localQueueArn = (name: string): string => `arn:aws:sqs:${LOCAL_AWS_SETTINGS.region}:${LOCAL_ACCOUNT_ID}:${name}`;

/** The service's queues, found by name or by URL as SQS addresses them. */
export class QueueRegistry {
  private readonly queues = new Map<string, LocalQueue>();

  /** `kept`: the journal queues record their changes in, and what it held at start. */
  constructor(
    readonly endpoint: string,
    definitions: readonly LocalQueueDefinition[],
    kept?: { journal: QueueJournal; restored: PersistedQueues },
  ) {
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

  urlOf(name: string): string {
    return `${this.endpoint}/${LOCAL_ACCOUNT_ID}/${this.byName(name).name}`;
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
