import { randomInt } from 'node:crypto';

/**
 * A client address for a test that uses up its hour of key creations on the shared server.
 * freshClientAddress() (test/support/api.ts) draws from 127.(100 + worker).x.y; this draws from
 * 127.(200 + worker).x.y, so that no other test's fresh address can land on a used-up one. With
 * one range for both, one of a run's many fresh addresses could, and once did: a round-trip
 * test's POST /keys got 429 (docs/testing.md, "Tests that failed once, and their causes").
 */
export function usedUpClientAddress(): string {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  return `127.${200 + worker}.${randomInt(256)}.${1 + randomInt(254)}`;
}
