import { randomUrlSafeId } from '../rules/random';

/**
 * A random value that one request writes with its conditional write, so that a repeat of that
 * write (the SDK retries a 500, a throttle or a dropped connection, and DynamoDB may have
 * applied the first attempt) can recognize its own work in the item. 96 bits: two requests never
 * share one. See docs/retried-writes.md.
 */
const WRITE_TOKEN_BYTES = 12;

export const newWriteToken = (): string => randomUrlSafeId(WRITE_TOKEN_BYTES);
