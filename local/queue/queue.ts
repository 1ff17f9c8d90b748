import { createHash, randomUUID } from 'node:crypto';
import { sleep } from '../poller-support';
import { QueueError } from './errors';
import type { PersistedMessage, QueueJournal } from './journal';

/** One SQS standard queue, in memory: visibility timeouts, receive counts, redrive, retention and long polling, by SQS's rules. */

/** SQS's ceiling on a message's visibility timeout, counted from its latest receive. */
export const MAX_VISIBILITY_TIMEOUT_S = 12 * 60 * 60;

/** Only the latest receipt's handle may change the message's visibility or delete it. */
type StoredMessage = PersistedMessage & { latestReceipt: { handle: string; receivedAt: number } | undefined };

export type ReceivedMessage = Readonly<PersistedMessage> & { receiptHandle: string; firstReceiveTimestamp: number };

const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** Receipt handles are opaque to clients; ours name the message so a stale one can be told from garbage. */
const newReceiptHandle = (messageId: string): string => Buffer.from(`${messageId} ${randomUUID()}`, 'utf8').toString('base64url');

function messageIdOf(receiptHandle: string): string {
  const [messageId, nonce, ...rest] = Buffer.from(receiptHandle, 'base64url').toString('utf8').split(' ');
  if (!messageId || !nonce || rest.length > 0) {
    throw new QueueError('ReceiptHandleIsInvalid', 'The input receipt handle is not a valid receipt handle.');
  }
  return messageId;
}

export class LocalQueue {
  // Insertion order is send order, so the oldest visible messages are received first.
  private readonly messages = new Map<string, StoredMessage>();
  /** Aborted, and replaced, whenever a waiting poll should look again. */
  private changed = new AbortController();

  /** `journal`: where every change is recorded (local mode with DATA_DIR); none keeps it in memory only. */
  constructor(
    readonly name: string,
    readonly settings: { visibilityTimeoutMs: number; retentionMs: number },
    readonly deadLetter: { queue: LocalQueue; maxReceiveCount: number } | undefined,
    private readonly journal?: QueueJournal,
  ) {}

  /** Takes back what the journal kept: leases died with their consumers, so leased messages are visible at once. */
  restore(messages: Iterable<PersistedMessage>): void {
    const now = Date.now();
    for (const message of messages) {
      const visibleAt = message.leased ? Math.min(message.visibleAt, now) : message.visibleAt;
      this.messages.set(message.messageId, { ...message, visibleAt, leased: false, latestReceipt: undefined });
    }
  }

  send(body: string, delayMs: number): Pick<PersistedMessage, 'messageId' | 'md5OfBody'> {
    const now = Date.now();
    const message: StoredMessage = {
      messageId: randomUUID(),
      body,
      md5OfBody: md5Hex(body),
      sentTimestamp: now,
      receiveCount: 0,
      firstReceiveTimestamp: undefined,
      visibleAt: now + delayMs,
      leased: false,
      latestReceipt: undefined,
      deadLetterSourceQueue: undefined,
    };
    this.messages.set(message.messageId, message);
    this.journal?.put(this.name, persisted(message));
    // A waiting poll sleeps until the earliest visibleAt it saw: a delayed message may come sooner.
    this.notify();
    return { messageId: message.messageId, md5OfBody: message.md5OfBody };
  }

  /** As on SQS, a message already received maxReceiveCount times moves to the dead-letter queue on its next receive. */
  private receiveAt(now: number, max: number, visibilityTimeoutMs: number): ReceivedMessage[] {
    this.dropExpired(now);
    const received: ReceivedMessage[] = [];
    for (const message of this.messages.values()) {
      if (received.length >= max) break;
      if (message.visibleAt > now) continue;
      if (this.deadLetter && message.receiveCount >= this.deadLetter.maxReceiveCount) {
        this.messages.delete(message.messageId);
        const { queue } = this.deadLetter;
        const moved = { ...message, visibleAt: now, leased: false, latestReceipt: undefined, deadLetterSourceQueue: this.name };
        queue.messages.set(moved.messageId, moved);
        queue.notify();
        this.journal?.move(this.name, queue.name, persisted(moved));
        continue;
      }
      message.receiveCount += 1;
      message.firstReceiveTimestamp ??= now;
      message.visibleAt = now + visibilityTimeoutMs;
      message.leased = true;
      message.latestReceipt = { handle: newReceiptHandle(message.messageId), receivedAt: now };
      const kept = persisted(message);
      this.journal?.put(this.name, kept);
      received.push({ ...kept, receiptHandle: message.latestReceipt.handle, firstReceiveTimestamp: message.firstReceiveTimestamp });
    }
    return received;
  }

  /** Every message the queue holds, visible or not, left as it is (queue/peek.ts). */
  peek(): PersistedMessage[] {
    this.dropExpired(Date.now());
    return [...this.messages.values()].map(persisted);
  }

  /** Long polling: receives as soon as messages are visible, or none once `waitMs` has passed or `signal` aborts. */
  async receiveWaiting(max: number, visibilityTimeoutMs: number, waitMs: number, signal: AbortSignal): Promise<ReceivedMessage[]> {
    const deadline = Date.now() + waitMs;
    // Never receive for a poll that has ended: nobody would get the messages, yet their counts would rise.
    while (!signal.aborted) {
      // One reading of the clock for both, or a message coming into view in between would be missed.
      const now = Date.now();
      const received = this.receiveAt(now, max, visibilityTimeoutMs);
      if (received.length > 0 || now >= deadline) return received;
      const until = Math.min(deadline, this.nextVisibleAfter(now));
      await sleep(Math.max(0, until - Date.now()), AbortSignal.any([signal, this.changed.signal]));
    }
    return [];
  }

  /** As SQS documents: a stale receipt handle "succeeds, but the message will not be deleted". */
  delete(receiptHandle: string): void {
    const message = this.messages.get(messageIdOf(receiptHandle));
    if (message?.latestReceipt?.handle !== receiptHandle) return;
    this.messages.delete(message.messageId);
    this.journal?.delete(this.name, message.messageId);
  }

  changeVisibility(receiptHandle: string, timeoutMs: number): void {
    const now = Date.now();
    this.dropExpired(now);
    const message = this.messages.get(messageIdOf(receiptHandle));
    const receipt = message?.latestReceipt;
    if (!message || receipt?.handle !== receiptHandle) {
      throw new QueueError(
        'ReceiptHandleIsInvalid',
        'The receipt handle is not the latest one of a message in the queue: the message was deleted, or received again since.',
      );
    }
    if (message.visibleAt <= now) throw new QueueError('MessageNotInflight', 'The message is not in flight.');
    // In whole seconds, as timeouts are given: the full 12 hours right after a receive is allowed.
    const heldS = Math.floor((now - receipt.receivedAt) / 1000);
    if (heldS + timeoutMs / 1000 > MAX_VISIBILITY_TIMEOUT_S) {
      throw new QueueError(
        'InvalidParameterValue',
        `Value ${timeoutMs / 1000} for parameter VisibilityTimeout is invalid. ` +
          `Reason: Total VisibilityTimeout for the message is beyond the limit [${MAX_VISIBILITY_TIMEOUT_S} seconds].`,
      );
    }
    message.visibleAt = now + timeoutMs;
    message.leased = false;
    this.journal?.put(this.name, persisted(message));
    // Waiting polls sleep until the earliest visibleAt they saw: a shortened timeout must wake them.
    this.notify();
  }

  counts(): { visible: number; inFlight: number; delayed: number } {
    const now = Date.now();
    this.dropExpired(now);
    const counts = { visible: 0, inFlight: 0, delayed: 0 };
    for (const message of this.messages.values()) {
      if (message.visibleAt <= now) counts.visible += 1;
      else if (message.receiveCount === 0) counts.delayed += 1;
      else counts.inFlight += 1;
    }
    return counts;
  }

  private dropExpired(now: number): void {
    for (const message of this.messages.values()) {
      if (message.sentTimestamp + this.settings.retentionMs > now) continue;
      this.messages.delete(message.messageId);
      this.journal?.delete(this.name, message.messageId);
    }
  }

  private notify(): void {
    this.changed.abort();
    this.changed = new AbortController();
  }

  private nextVisibleAfter(now: number): number {
    let next = Infinity;
    for (const { visibleAt } of this.messages.values()) if (visibleAt > now) next = Math.min(next, visibleAt);
    return next;
  }
}

function persisted(message: StoredMessage): PersistedMessage {
  const { latestReceipt: _receipt, ...kept } = message;
  return kept;
}
