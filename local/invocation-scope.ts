import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

/**
 * Local mode runs each function's invocations side by side in one process, where Lambda (outside
 * Managed Instances) runs one at a time per execution environment. Powertools keeps per-invocation
 * state (the Logger's correlation id and keys, the metrics not yet flushed) in module scope unless
 * AWS_LAMBDA_MAX_CONCURRENCY is set; then it keeps it in Lambda's invoke store, a scope the
 * runtime opens around each invocation. This does what the runtime of a multi-concurrency
 * environment does, so that two requests in flight never log each other's request id or count
 * each other's metrics.
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
 * Call once the handler modules are loaded, and wrap each handler in what it returns. Powertools
 * builds its Logger and Metrics as a module loads, outside any invocation: in the invoke store's
 * mode they would find no scope to keep their state in (and an init scope of our own would hold
 * the Logger's level where invocations do not look).
 */
export async function invocationScopes(): Promise<InScope> {
  if (!store) throw new Error('prepareInvocationScopes() must run first');
  const perInvocation = await store;
  process.env[MAX_CONCURRENCY_ENV] ||= 'unbounded';
  return (handler) => (event, context) =>
    perInvocation.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId }, () => handler(event, context));
}

/**
 * The environment for another process of local mode's, which loads handlers of its own: without
 * the variable, until that process enables its scopes once they are loaded.
 */
export function environmentBeforeScopes(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [MAX_CONCURRENCY_ENV]: _enabledHere, ...rest } = env;
  return rest;
}
