import { API_BASE_PATH } from '../../contract/limits';
import { PAGES_CONFIG_FILE, type PagesConfig } from '../../contract/site';
import {
  LinkError,
  NetworkError,
  OnetimeClient,
  PayloadTooLargeError,
  RateLimitedError,
  SecretGoneError,
  ServiceError,
} from '../../client/src/index';
import type { Phrase } from './i18n/format';

/** The pages' side of the service: a browser session mints one API key and keeps it in sessionStorage. */

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

let deployment: Promise<Partial<PagesConfig>> | undefined;

/** The deployment's config.json, fetched once when first asked for; empty when there is none (a plain static host). */
export const pagesConfig = (): Promise<Partial<PagesConfig>> =>
  (deployment ??= fetch(`/${PAGES_CONFIG_FILE}`, { cache: 'no-cache' })
    .then(async (response) => (response.ok ? ((await response.json()) as Partial<PagesConfig>) : {}))
    .catch(() => ({})));

/** A `signed-in` deployment's share page needs a key from signing in: there is none, or it has ended. */
export class SignInRequired extends Error {}

/** Set by the share page of a `signed-in` deployment: withSessionKey mints no key of its own (it could only reveal). */
let keyComesFromSignIn = false;

export function requireSignedInKey(): void {
  keyComesFromSignIn = true;
}

export const hasSessionKey = (): boolean => storedKey() !== undefined;

/** Spends a sign-in's ID token on a full key, kept for the session like any other. */
export async function keepSignedInKey(idToken: string): Promise<void> {
  storeKey((await client().createKey({ signInToken: idToken })).key);
}

/** The action's result with the session's key, never minting one; undefined when there is none or the service refused it. */
export async function withStoredSessionKey<T>(action: (client: OnetimeClient) => Promise<T>): Promise<{ value: T } | undefined> {
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
  const done = await withStoredSessionKey(action);
  if (done) return done.value;
  if (keyComesFromSignIn) throw new SignInRequired();
  const minted = (await client().createKey()).key;
  storeKey(minted);
  return action(client(minted));
}

/** Runs `action` with the session's key if there is one; otherwise with a key minted for it alone, revoked afterwards. */
export async function withKeyForOneAction<T>(action: (client: OnetimeClient) => Promise<T>): Promise<T> {
  const done = await withStoredSessionKey(action);
  if (done) return done.value;
  const minted = client((await client().createKey()).key);
  try {
    return await action(minted);
  } finally {
    // Not awaited: the person sees the result at once; a key left behind expires by itself.
    minted.revokeKey().catch(() => undefined);
  }
}

/** A sentence for a person, for any failure the library reports. */
export function describeFailure(error: unknown): Phrase {
  if (error instanceof RateLimitedError) return { key: 'error.rateLimited', params: { time: { time: error.retryAt } } };
  if (error instanceof NetworkError) return { key: 'error.network' };
  if (error instanceof PayloadTooLargeError) {
    return error.maxContentBytes === undefined
      ? { key: 'error.tooLarge' }
      : { key: 'error.tooLargeAtMost', params: { size: { bytes: error.maxContentBytes } } };
  }
  if (error instanceof SecretGoneError) return { key: 'reveal.gone' };
  if (error instanceof LinkError) return { key: error.reason === 'malformed' ? 'reveal.damagedLink' : 'reveal.undecryptable' };
  // The service's own `{error}` is English, for developers: the page names the status instead.
  if (error instanceof ServiceError) return { key: 'error.refused', params: { status: String(error.status) } };
  return { key: 'error.unknown' };
}
