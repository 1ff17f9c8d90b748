import { apiKeyHint, hashApiKey } from '../rules/api-keys';
import { windowState, type WindowState } from '../rules/sliding-window';
import type { ByteSlots } from '../rules/stored-bytes-window';
import { authenticateAndCount, type StoredKey } from '../store/key-store';

/** The key a request was authenticated with: only its hash and hint, never the key itself. */
export interface Caller {
  keyHash: string;
  hint: string;
  stored: StoredKey;
  /** The key's bytes sent to POST /secrets per hour, this request's included when it counted them. */
  byteSlots: ByteSlots;
}

export type RequestAuthentication =
  | { outcome: 'unknown' }
  | { outcome: 'expired' }
  /** The key is live but has used up its window: the request was counted, and is refused. */
  | { outcome: 'limited'; window: WindowState }
  | { outcome: 'authenticated'; window: WindowState; caller: Caller };

/**
 * Checks a well-formed API key and counts this request in its sliding window (and, for POST
 * /secrets, its bytes), in one write.
 */
export async function authenticateRequest(apiKey: string, now: number, bytes = 0): Promise<RequestAuthentication> {
  const keyHash = hashApiKey(apiKey);
  const result = await authenticateAndCount(keyHash, now, bytes);
  if (result.outcome !== 'authenticated') return result;
  const window = windowState(result.slots, now);
  if (window.limited) return { outcome: 'limited', window };
  return { outcome: 'authenticated', window, caller: { keyHash, hint: apiKeyHint(apiKey), stored: result.key, byteSlots: result.byteSlots } };
}
