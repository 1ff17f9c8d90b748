import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

/**
 * Invocations run side by side in one process. With AWS_LAMBDA_MAX_CONCURRENCY set, Powertools keeps
 * per-invocation state in Lambda's invoke store, which this opens around each invocation, as a
 * multi-concurrency runtime does: two requests never log each other's ids or metrics.
 */

type Handler<TEvent, TResult> = (event: TEvent, context: Context) => Promise<TResult>;
export type InScope = <TEvent, TResult>(handler: Handler<TEvent, TResult>) => Handler<TEvent, TResult>;

/** Powertools and the invoke store only ask whether it is set. */
const MAX_CONCURRENCY_ENV = 'AWS_LAMBDA_MAX_CONCURRENCY';

let store: Promise<InvokeStoreBase> | undefined;

/**
 * First thing in a process of local mode's, before any AWS SDK call: the SDK's first call makes
 * the process's invoke store, one that holds a single invocation unless told otherwise.
 */
export function prepareInvocationScopes(): void {
  if (globalThis.awslambda?.InvokeStore) throw new Error('the invoke store was made before local mode could make it per invocation');
  store ??= InvokeStore.getInstanceAsync(true);
}

/**
 * Call once the handler modules are loaded (Powertools builds its Logger and Metrics as a module
 * loads, outside any invocation), and wrap each handler in what it returns.
 */
export async function invocationScopes(): Promise<InScope> {
  if (!store) throw new Error('prepareInvocationScopes() must run first');
  const perInvocation = await store;
  process.env[MAX_CONCURRENCY_ENV] ||= 'unbounded';
  return (handler) => (event, context) =>
    perInvocation.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId }, () => handler(event, context));
}

/** The environment for another process of local mode's that loads handlers: without the variable until it has. */
export function environmentBeforeScopes(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [MAX_CONCURRENCY_ENV]: _enabledHere, ...rest } = env;
  return rest;
}
