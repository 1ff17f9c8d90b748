import { withinTimeBudget } from '../aws/time-budget';
import { API_STORE_BUDGET_MS } from '../definitions/limits';
import { isStoreFault } from '../store/settled-write';

/**
 * Runs a request's work within its function's time budget, counted from now (when the function
 * started): every DynamoDB call draws on what is left (aws/time-budget.ts).
 */
export const withinRequestBudget = <T>(work: () => Promise<T>): Promise<T> => withinTimeBudget(API_STORE_BUDGET_MS, work);

/**
 * The data store could not be reached, or did not answer within the budget (StoreUnavailable, a
 * read that ended without an answer): 503 rather than the 500 of the function's own errors.
 */
export const isStoreUnavailable = (error: unknown): boolean => isStoreFault(error);
