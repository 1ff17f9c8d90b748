import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The local queues on disk (with DATA_DIR): each change is appended to a log before its SQS call is
 * answered, folded into a snapshot at start and when large (docs/decisions/local-queue.md). Not
 * fsynced: it survives a killed process, not a dead machine.
 */

/** A message as kept: all but its receipt, which dies with the consumer that held it. */
export interface PersistedMessage {
  messageId: string;
  body: string;
  md5OfBody: string;
  sentTimestamp: number;
  receiveCount: number;
  firstReceiveTimestamp: number | undefined;
  visibleAt: number;
  /** Hidden by a receive (a consumer's lease), rather than by a delay or ChangeMessageVisibility. */
  leased: boolean;
  deadLetterSourceQueue: string | undefined;
}

type JournalEntry = { queue: string; put: PersistedMessage } | { queue: string; deleted: string };

/** What the service's queues held, by queue name, in send order. */
export type PersistedQueues = Map<string, Map<string, PersistedMessage>>;

const LOG_FILE = 'queues.log';
const SNAPSHOT_FILE = 'queues.json';
/** The log is folded into the snapshot past this size: a restart replays at most this much. */
const COMPACT_AFTER_BYTES = 16 * 1024 * 1024;

export class QueueJournal {
  private fd: number;
  private logBytes = 0;

  private constructor(
    private readonly directory: string,
    private readonly state: PersistedQueues,
  ) {
    this.fd = this.compact();
  }

  /** Reads what `directory` holds (creating it if need be) and starts a fresh log beside a new snapshot. */
  static open(directory: string): { journal: QueueJournal; restored: PersistedQueues } {
    mkdirSync(directory, { recursive: true });
    const state = readSnapshot(path.join(directory, SNAPSHOT_FILE));
    for (const entry of readLog(path.join(directory, LOG_FILE))) apply(state, entry);
    // Shared with the journal: queues copy each message they restore, and never change these maps.
    return { journal: new QueueJournal(directory, state), restored: state };
  }

  put(queue: string, message: PersistedMessage): void {
    this.append([{ queue, put: { ...message } }]);
  }

  /** One write for both: a message moved to a dead-letter queue is in one of them, whenever the process dies. */
  move(from: string, to: string, message: PersistedMessage): void {
    this.append([
      { queue: to, put: { ...message } },
      { queue: from, deleted: message.messageId },
    ]);
  }

  delete(queue: string, messageId: string): void {
    this.append([{ queue, deleted: messageId }]);
  }

  close(): void {
    closeSync(this.fd);
  }

  private append(entries: JournalEntry[]): void {
    for (const entry of entries) apply(this.state, entry);
    const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    writeSync(this.fd, text);
    this.logBytes += Buffer.byteLength(text);
    if (this.logBytes > COMPACT_AFTER_BYTES) {
      closeSync(this.fd);
      this.fd = this.compact();
    }
  }

  /** Snapshot (temp file, then rename), then an empty log: replaying an old log again is harmless, as each entry sets or removes a message whole. */
  private compact(): number {
    const snapshot = path.join(this.directory, SNAPSHOT_FILE);
    const temporary = `${snapshot}.tmp`;
    const queues = Object.fromEntries([...this.state].map(([name, messages]) => [name, [...messages.values()]]));
    writeFileSync(temporary, JSON.stringify({ queues }));
    renameSync(temporary, snapshot);
    this.logBytes = 0;
    return openSync(path.join(this.directory, LOG_FILE), 'w');
  }
}

function apply(state: PersistedQueues, entry: JournalEntry): void {
  let messages = state.get(entry.queue);
  if (!messages) state.set(entry.queue, (messages = new Map<string, PersistedMessage>()));
  if ('put' in entry) messages.set(entry.put.messageId, entry.put);
  else messages.delete(entry.deleted);
}

function readSnapshot(file: string): PersistedQueues {
  const state: PersistedQueues = new Map();
  if (!existsSync(file)) return state;
  const { queues } = JSON.parse(readFileSync(file, 'utf8')) as { queues: Record<string, PersistedMessage[]> };
  for (const [name, messages] of Object.entries(queues)) {
    state.set(name, new Map(messages.map((message) => [message.messageId, message])));
  }
  return state;
}

/** The log's entries. Each ends in a newline: a last one without it was cut short by the process dying. */
function readLog(file: string): JournalEntry[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.pop();
  return lines.map((line) => JSON.parse(line) as JournalEntry);
}
