import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

/**
 * Local mode runs a function's invocations side by side in one process. Powertools keeps
 * per-invocation state (log keys, unflushed metrics) in module scope unless AWS_LAMBDA_MAX_CONCURRENCY
 * is set; then it keeps it in Lambda's invoke store. This opens that store around each invocation,
 * as a multi-concurrency runtime does, so two requests never log each other's ids or metrics.
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
