import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareStack } from '@smithy/types';

/**
 * What one invocation spends in its SDK calls, seen from a middleware on the functions' own clients
 * (added by the bench, never in a bundle): the commands it sends, and the ms during which one was in flight.
 */
export interface CallsSeen {
  /** Command names as the clients name them, e.g. UpdateItemCommand (what the document client's UpdateCommand sends), SendMessageCommand. */
  commands: string[];
  callsMs: number;
}

interface Tracking extends CallsSeen {
  inFlight: number;
  since: number;
}

const current = new AsyncLocalStorage<Tracking>();

/** Outermost on the stack: a call's time covers its serializing, signing, retries and parsing, as a bare call pays them. */
export function watchCalls(client: { middlewareStack: Pick<MiddlewareStack<object, object>, 'add'> }): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const tracking = current.getStore();
      if (!tracking) return next(args);
      tracking.commands.push(String(context.commandName));
      if (tracking.inFlight++ === 0) tracking.since = performance.now();
      try {
        return await next(args);
      } finally {
        if (--tracking.inFlight === 0) tracking.callsMs += performance.now() - tracking.since;
      }
    },
    { step: 'initialize', priority: 'high', name: 'benchWatchCalls' },
  );
}

/** Runs `work` (one invocation), timing it whole and in its calls. */
export async function withCallsSeen<T>(work: () => Promise<T>): Promise<{ result: T; totalMs: number } & CallsSeen> {
  const tracking: Tracking = { commands: [], callsMs: 0, inFlight: 0, since: 0 };
  const started = performance.now();
  const result = await current.run(tracking, work);
  return { result, totalMs: performance.now() - started, commands: tracking.commands, callsMs: tracking.callsMs };
}
