import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The time an invocation has for its DynamoDB work, counted from when the function started: a
 * route's request time is no use for this (authentication has spent part of it by the time a
 * claim runs). Each store call draws on what is left; an invocation outside a budget (local
 * mode's own calls, unit tests) has no deadline.
 */
const deadlines = new AsyncLocalStorage<number>();

/** Runs `work` with a deadline `budgetMs` from now. */
export const withinTimeBudget = <T>(budgetMs: number, work: () => Promise<T>): Promise<T> => deadlines.run(Date.now() + budgetMs, work);

/** Milliseconds left of this invocation's budget; Infinity outside one. */
export const remainingBudgetMs = (): number => {
  const deadline = deadlines.getStore();
  return deadline === undefined ? Infinity : Math.max(0, deadline - Date.now());
};

/**
 * A signal that ends a call (its retries included) when the budget runs out, or `keepMs` before
 * that (time a later step needs); with `capMs`, no later than that from now.
 */
export function budgetSignal(keepMs = 0, capMs = Infinity): AbortSignal | undefined {
  const available = Math.min(remainingBudgetMs() - keepMs, capMs);
  return Number.isFinite(available) ? AbortSignal.timeout(Math.max(0, available)) : undefined;
}
