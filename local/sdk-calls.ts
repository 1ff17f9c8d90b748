import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { BatchGetItemInput, KeysAndAttributes, PutItemInput, UpdateItemInput } from '@aws-sdk/client-dynamodb';
import type { MetadataBearer, MiddlewareStack } from '@smithy/types';
import type { RouteName } from '#lambdas/definitions/routes';
import { ATTEMPT_ATTRIBUTE_PREFIX, CLAIM_ATTRIBUTE_PREFIX, TABLES } from '#lambdas/definitions/tables';
import { PIPELINE_ENTRIES, QUEUES } from '#lambdas/definitions/webhooks';

/** What each function sends to AWS, for test/integration/support/least-privilege.ts: DynamoDB Local and the local queue enforce no IAM. */

/** Local mode only: a directory to record the functions' SDK calls in, one JSONL file per process. */
export const SDK_CALL_LOG_ENV = 'LOCAL_SDK_CALL_LOG';

/** The stack's functions: one per route, and the webhook pipeline's two. */
export type FunctionName = RouteName | keyof typeof PIPELINE_ENTRIES;

export interface RecordedCall {
  function: FunctionName;
  /** The IAM action the call needs, e.g. `dynamodb:UpdateItem`. */
  action: string;
  /** The TABLES or QUEUES id the call addresses (the name or URL itself if it is none of them). */
  resource: string;
  /** GetItem, UpdateItem and PutItem: every top-level attribute the request names, sorted; BatchGetItem with a projection: those it reads. */
  attributes?: string[];
  /** NONE when the request asks for none (DynamoDB's default). */
  returnValues?: string;
  /** No IAM condition key covers it: recorded so that a test can pin it. */
  returnValuesOnConditionCheckFailure?: string;
  /** A BatchGetItem with a projection: SPECIFIC_ATTRIBUTES, as IAM's dynamodb:Select sees it. */
  select?: string;
}

const currentFunction = new AsyncLocalStorage<FunctionName>();

export const asFunction =
  <TEvent, TContext, TResult>(name: FunctionName, handler: (event: TEvent, context: TContext) => Promise<TResult>) =>
  (event: TEvent, context: TContext): Promise<TResult> =>
    currentFunction.run(name, () => handler(event, context));

/** Every member the recorded calls read, as the client's and the document client's inputs name them (GetItem's are among UpdateItem's). */
type DynamoDbInput = Partial<UpdateItemInput & PutItemInput & BatchGetItemInput & { ProjectionExpression: string }>;

/** The TABLES or QUEUES id a name or URL from the functions' environment stands for. */
function resourceId(nameOrUrl: string): string {
  const known = [...TABLES, ...Object.values(QUEUES)].find((resource) => process.env[resource.envVar] === nameOrUrl);
  return known?.id ?? nameOrUrl;
}

/** A claim's own attribute (`claim:<token>`) and a wrong proof's (`attempt:<token>`) as one name: one recorded line for all claims. */
const TOKEN_ATTRIBUTE = new RegExp(`^(${CLAIM_ATTRIBUTE_PREFIX}|${ATTEMPT_ATTRIBUTE_PREFIX}).+`);
const recordedName = (name: string): string => name.replace(TOKEN_ATTRIBUTE, '$1<token>');

function writeDetails(
  operation: string,
  input: DynamoDbInput,
): Pick<RecordedCall, 'attributes' | 'returnValues' | 'returnValuesOnConditionCheckFailure'> {
  if (operation !== 'UpdateItem' && operation !== 'PutItem' && operation !== 'GetItem') return {};
  const placeholders = input.ExpressionAttributeNames ?? {};
  const attributes = new Set([
    ...Object.keys(input.Key ?? {}),
    ...Object.keys(input.Item ?? {}),
    ...expressionAttributeNames(input.UpdateExpression, placeholders),
    ...expressionAttributeNames(input.ConditionExpression, placeholders),
    ...expressionAttributeNames(input.ProjectionExpression, placeholders),
  ]);
  return {
    attributes: [...new Set([...attributes].map(recordedName))].sort(),
    returnValues: input.ReturnValues ?? 'NONE',
    returnValuesOnConditionCheckFailure: input.ReturnValuesOnConditionCheckFailure ?? 'NONE',
  };
}

/** A BatchGetItem with a projection: the names it reads, keys included, as IAM's dynamodb:Attributes compares them. */
function batchReadDetails(operation: string, read: KeysAndAttributes | undefined): Pick<RecordedCall, 'attributes' | 'select'> {
  if (operation !== 'BatchGetItem' || read?.ProjectionExpression === undefined) return {};
  const attributes = new Set([
    ...(read.Keys ?? []).flatMap((key) => Object.keys(key)),
    ...expressionAttributeNames(read.ProjectionExpression, read.ExpressionAttributeNames ?? {}),
  ]);
  return { attributes: [...attributes].sort(), select: 'SPECIFIC_ATTRIBUTES' };
}

function callsOf(service: 'dynamodb' | 'sqs', operation: string, input: DynamoDbInput & { QueueUrl?: string }): Omit<RecordedCall, 'function'>[] {
  if (service === 'sqs') {
    // SQS's batch actions (SendMessageBatch...) are authorized as their single forms.
    return [{ action: `sqs:${operation.replace(/Batch$/, '')}`, resource: resourceId(input.QueueUrl ?? '') }];
  }
  const tables = input.TableName !== undefined ? [input.TableName] : Object.keys(input.RequestItems ?? {});
  return tables.map((table) => ({
    action: `dynamodb:${operation}`,
    resource: resourceId(table),
    ...writeDetails(operation, input),
    ...batchReadDetails(operation, input.RequestItems?.[table]),
  }));
}

/** Records each distinct call `client` sends from inside asFunction (not local mode's own) in this process's file under `directory`. */
export function recordSdkCalls<Input extends object, Output extends MetadataBearer>(
  client: { middlewareStack: MiddlewareStack<Input, Output> },
  service: 'dynamodb' | 'sqs',
  directory: string,
): void {
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${process.pid}.jsonl`);
  const seen = new Set<string>();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = currentFunction.getStore();
      if (name) {
        const operation = (context.commandName ?? '').replace(/Command$/, '');
        for (const call of callsOf(service, operation, args.input)) {
          const line = JSON.stringify({ function: name, ...call } satisfies RecordedCall);
          if (seen.has(line)) continue;
          seen.add(line);
          // Synchronous, a whole line at a time: a process killed mid-run leaves complete lines only.
          appendFileSync(file, `${line}\n`);
        }
      }
      return next(args);
    },
    // At `initialize`, before the retry middleware: the call as the function sent it, once.
    { step: 'initialize', name: 'recordSdkCalls' },
  );
}

/**
 * The top-level names a DynamoDB expression names (`rl` for `rl.#slot`), as IAM's dynamodb:Attributes
 * compares them. Hand-written: no kept library parses expressions; this covers the stores' grammar.
 */

/** Update clauses and the condition grammar's operators; function names are told by the `(` after them. */
const KEYWORDS = new Set(['SET', 'REMOVE', 'ADD', 'DELETE', 'AND', 'OR', 'NOT', 'BETWEEN', 'IN']);

/** A path's first element: a name or #placeholder not inside a path, a :value or another name. */
const PATH_START = /(?<![.\w#:])#?[A-Za-z_]\w*/g;

export function expressionAttributeNames(expression: string | undefined, placeholders: Readonly<Record<string, string>> = {}): string[] {
  if (!expression) return [];
  const names: string[] = [];
  for (const match of expression.matchAll(PATH_START)) {
    const token = match[0];
    const rest = expression.slice(match.index + token.length).trimStart();
    if (rest.startsWith('(') || KEYWORDS.has(token.toUpperCase())) continue;
    if (!token.startsWith('#')) {
      names.push(token);
      continue;
    }
    const name = placeholders[token];
    if (name === undefined) throw new Error(`expression placeholder ${token} has no name`);
    names.push(name);
  }
  return names;
}
