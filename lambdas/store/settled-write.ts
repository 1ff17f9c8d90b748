import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { budgetSignal, remainingBudgetMs } from './time-budget';
import { dynamo } from './dynamo';

/**
 * A write whose outcome the service settles itself, whatever the SDK's retry state. The SDK
 * repeats a write whose answer was lost (docs/retried-writes.md), but not always: its attempts
 * end, its retry quota may be spent, the time budget may run out. When the write ends without
 * DynamoDB's answer (a 5xx, a throttle, a reset, a timeout), it may or may not have been applied;
 * `settle` then reads the item (strongly consistent) and looks for the request's own token: if the
 * write applied, that read gives the result it had; if not, the write is sent again, the same
 * request with the same token, while time and rounds are left. Only a store that answers neither
 * ends in StoreUnavailable, which the routes answer 503.
 */

/** What `settle` answers when the item shows the write was not applied. */
export const NOT_APPLIED = Symbol('not applied');
export type Settled<T> = T | typeof NOT_APPLIED;

/** DynamoDB did not answer a call within its time: neither failure nor success is known. */
export class StoreUnavailable extends Error {
  /**
   * The request may have written before the store stopped answering (a claim's view): a repeat
   * with its Idempotency-Key must look for that write under the first's names, not do it again.
   */
  readonly mayHaveWritten: boolean;

  constructor(cause: unknown, { mayHaveWritten = false }: { mayHaveWritten?: boolean } = {}) {
    // The cause's name only (a timeout, a reset, a 500): never a message that could quote an item.
    super(`the data store did not answer in time (${cause instanceof Error ? cause.name : String(cause)})`, { cause });
    this.name = 'StoreUnavailable';
    this.mayHaveWritten = mayHaveWritten;
  }
}

/** DynamoDB's throttling errors: answered with a 400, but nothing says the write was not applied. */
const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);
const ENDED_WITHOUT_ANSWER = new Set(['AbortError', 'TimeoutError']);

/**
 * An SDK call that ended without a definitive answer: a 5xx, a throttle, a dropped or refused
 * connection, a timeout, the budget's abort. A 4xx (a failed condition, a validation error) is
 * an answer; an error that is no SDK call's (our own bug) is neither.
 */
export function isStoreFault(error: unknown): boolean {
  if (error instanceof StoreUnavailable) return true;
  if (!(error instanceof Error)) return false;
  if (ENDED_WITHOUT_ANSWER.has(error.name) || THROTTLING.has(error.name)) return true;
  const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  if (metadata === undefined) return false;
  const status = metadata.httpStatusCode;
  return status === undefined || status >= 500;
}

/** Time a settling read is kept from the write before it: a read answers in milliseconds when the store does. */
const SETTLE_RESERVE_MS = 1_000;
/**
 * Sends of the same write, each after a read showed the one before not applied: as many as the
 * SDK's attempts, which its retry quota may refuse (a container whose quota a DynamoDB outage has
 * spent sends each call once).
 */
const MAX_SENDS = 3;

export interface SettledWrite<T> {
  /** Sends the write (the same request, with the same token, every time) and reads its answer. */
  write: (signal: AbortSignal | undefined) => Promise<T>;
  /** After a lost answer: the result the write had, read from the item, or NOT_APPLIED. */
  settle: (signal: AbortSignal | undefined) => Promise<Settled<T>>;
  /** The most time writes and reads together may take from now (the claim's retry window). */
  withinMs?: number;
  /** At most this many sends (a count that must not be applied twice: 1). */
  sends?: number;
}

export async function settledWrite<T>({ write, settle, withinMs = Infinity, sends = MAX_SENDS }: SettledWrite<T>): Promise<T> {
  const started = Date.now();
  const left = (): number => withinMs - (Date.now() - started);
  for (let send = 1; ; send++) {
    let fault: unknown;
    try {
      return await write(budgetSignal(SETTLE_RESERVE_MS, left() - SETTLE_RESERVE_MS));
    } catch (error) {
      if (!isStoreFault(error)) throw error;
      fault = error;
    }
    let settled: Settled<T>;
    try {
      settled = await settle(budgetSignal(0, left()));
    } catch (error) {
      if (isStoreFault(error)) throw new StoreUnavailable(error);
      throw error;
    }
    if (settled !== NOT_APPLIED) return settled;
    if (send >= sends || Math.min(remainingBudgetMs(), left()) <= 2 * SETTLE_RESERVE_MS) throw new StoreUnavailable(fault);
  }
}

/** Where nothing needs reading: a write that is the same whether applied once or twice (a batch of puts or deletes). */
export const repeatIt = (): Promise<typeof NOT_APPLIED> => Promise.resolve(NOT_APPLIED);

/**
 * A strongly consistent read of `attributes` of one item (a settling read); undefined when the
 * item does not exist. Only the attributes named are read, as the roles allow (access.ts).
 */
export async function readForSettling<TItem>(
  table: string,
  key: Record<string, string>,
  attributes: readonly string[],
  signal: AbortSignal | undefined,
): Promise<TItem | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: table,
      Key: key,
      ConsistentRead: true,
      ProjectionExpression: attributes.map((_, index) => `#s${index}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(attributes.map((name, index) => [`#s${index}`, name])),
    }),
    signal ? { abortSignal: signal } : {},
  );
  return Item as TItem | undefined;
}
