import { API_BASE_PATH } from '../../lambdas/definitions/limits';
import {
  LinkError,
  NetworkError,
  OnetimeClient,
  OnetimeError,
  PayloadTooLargeError,
  RateLimitedError,
  SecretGoneError,
  ServiceError,
} from '../../client/src/index';

/**
 * The pages' side of the service: the API on this same origin, and the API key a person never
 * has to see. A browser session mints one key (POST /keys) and keeps it in sessionStorage, so
 * that sharing several secrets costs one key of the address's hourly allowance; a reveal without
 * one mints a key for that reveal alone and revokes it once done.
 */

const baseUrl = `${location.origin}${API_BASE_PATH}`;
const STORED_KEY = 'onetime.apiKey';

const client = (apiKey?: string): OnetimeClient => new OnetimeClient({ baseUrl, ...(apiKey ? { apiKey } : {}) });

/** The key was revoked or expired, or local mode restarted with an empty store: nothing was done with it. */
const isRefusedKey = (error: unknown): boolean => error instanceof ServiceError && error.status === 401;

function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(STORED_KEY) ?? undefined;
  } catch {
    return undefined; // storage blocked: every action mints its own key
  }
}

function storeKey(key: string | undefined): void {
  try {
    if (key === undefined) sessionStorage.removeItem(STORED_KEY);
    else sessionStorage.setItem(STORED_KEY, key);
  } catch {
    // Storage blocked: the key lives as long as this page.
  }
}

async function mintKey(): Promise<string> {
  return (await client().createKey()).key;
}

/**
 * The action's result with the session's key; undefined when there is none, or when the service
 * refused it (it is then forgotten, and nothing was done with it).
 */
async function withStoredKey<T>(action: (client: OnetimeClient) => Promise<T>): Promise<{ value: T } | undefined> {
  const stored = storedKey();
  if (stored === undefined) return undefined;
  try {
    return { value: await action(client(stored)) };
  } catch (error) {
    if (!isRefusedKey(error)) throw error;
    storeKey(undefined);
    return undefined;
  }
}

/** Runs `action` with the session's key, minted (and kept for the session) when there is none. */
export async function withSessionKey<T>(action: (client: OnetimeClient) => Promise<T>): Promise<T> {
  const done = await withStoredKey(action);
  if (done) return done.value;
  const minted = await mintKey();
  storeKey(minted);
  return action(client(minted));
}

/** Runs `action` with the session's key if there is one; otherwise with a key minted for it alone, revoked afterwards. */
export async function withKeyForOneAction<T>(action: (client: OnetimeClient) => Promise<T>): Promise<T> {
  const done = await withStoredKey(action);
  if (done) return done.value;
  const minted = client(await mintKey());
  try {
    return await action(minted);
  } finally {
    // Not awaited: the person sees the result at once; a key left behind expires by itself.
    minted.revokeKey().catch(() => undefined);
  }
}

const timeOf = (at: number): string => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** A sentence for a person, for any failure the library reports. */
export function describeFailure(error: unknown): string {
  if (error instanceof RateLimitedError) return `Too many requests from your address. Please try again after ${timeOf(error.retryAt)}.`;
  if (error instanceof NetworkError) return 'The service could not be reached. Check your connection and try again.';
  if (error instanceof PayloadTooLargeError) {
    return error.maxContentBytes === undefined
      ? 'This is too large to share.'
      : `This is too large to share: at most ${formatBytes(error.maxContentBytes)} fit.`;
  }
  if (error instanceof SecretGoneError || error instanceof LinkError) return error.message;
  if (error instanceof OnetimeError) return `The service refused this: ${error.message}.`;
  return 'Something went wrong. Please try again.';
}

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
