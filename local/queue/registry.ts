import { LOCAL_ACCOUNT_ID, LOCAL_AWS_SETTINGS } from '../aws-account';
import { QueueError } from './errors';
import type { PersistedQueues, QueueJournal } from './journal';
import { LocalQueue, type DeadLetterTarget } from './queue';

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
    const byName = new Map(definitions.map((definition) => [definition.name, definition]));
    if (byName.size !== definitions.length) throw new Error('local queue names must be unique');
    const create = (definition: LocalQueueDefinition, referrers: readonly string[]): LocalQueue => {
      const existing = this.queues.get(definition.name);
      if (existing) return existing;
      if (referrers.includes(definition.name)) throw new Error(`dead-letter queues form a cycle at ${definition.name}`);
      let deadLetter: DeadLetterTarget | undefined;
      if (definition.deadLetter) {
        const target = byName.get(definition.deadLetter.name);
        if (!target) {
          throw new Error(`${definition.name}: dead-letter queue ${definition.deadLetter.name} is not defined`);
        }
        deadLetter = {
          queue: create(target, [...referrers, definition.name]),
          maxReceiveCount: definition.deadLetter.maxReceiveCount,
        };
      }
      const { visibilityTimeoutMs, retentionMs } = definition;
      const queue = new LocalQueue(definition.name, { visibilityTimeoutMs, retentionMs }, deadLetter, kept?.journal);
      queue.restore(kept?.restored.get(definition.name)?.values() ?? []);
      this.queues.set(definition.name, queue);
      return queue;
    };
    for (const definition of definitions) create(definition, []);
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
