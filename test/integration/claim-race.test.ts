import './support/store-access';
import { DATA_CHUNK_BYTES, SECRET_ID_BYTES } from '#contract/limits';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { base64Of } from '../support/api';
import { closeStore, itemsOfSecret } from './support/store';
import { eventually } from '../support/eventually';
import { dynamo } from '#lambdas/store/dynamo';
import { claimSecret as claimAnySecret, isGateRefusal, putSecret, type ClaimedSecret } from '#lambdas/store/secret-store';

/**
 * A chunked secret's claim takes its view first and reads the chunks after. This forces, on the
 * real DynamoDB engine, the interleaving where claim B (the last view) runs entirely between
 * claim A's view and A's chunk read: both must still be served the whole data.
 */

afterAll(closeStore);

const HOLD_FIRST_CHUNK_READ = 'holdFirstChunkRead';

/** These secrets have no passphrase gate: a claim takes a view or finds none. */
async function claimSecret(id: string, now: number, caller: string): Promise<ClaimedSecret | undefined> {
  const result = await claimAnySecret(id, now, caller);
  if (result && isGateRefusal(result)) throw new Error('an ungated secret refused a claim');
  return result;
}

test('the last view taken while an earlier claim still reads the chunks: both get the whole data', async () => {
  const id = randomUrlSafeId(SECRET_ID_BYTES);
  const data = base64Of(3 * DATA_CHUNK_BYTES, 11);
  const now = Date.now();
  await putSecret({ id, owner: 'race', data, type: 'text', views: 2, created: now, expires: now + 60_000 });

  let claimB: Promise<ClaimedSecret | undefined> | undefined;
  let claimBDone: ClaimedSecret | undefined;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      // Hold claim A's first chunk read until claim B has finished completely.
      if (/^BatchGet/.test(context.commandName ?? '') && !claimB) {
        claimB = claimSecret(id, Date.now(), 'caller-hash');
        claimBDone = await claimB;
      }
      return next(args);
    },
    { step: 'initialize', name: HOLD_FIRST_CHUNK_READ },
  );

  const claimA = await claimSecret(id, Date.now(), 'caller-hash');
  dynamo.middlewareStack.remove(HOLD_FIRST_CHUNK_READ);

  expect({ a: claimA?.remaining, b: claimBDone?.remaining, bRan: claimB !== undefined }).toEqual({ a: 1, b: 0, bRan: true });
  expect(claimBDone?.data === data).toBe(true);
  expect(claimA?.data === data).toBe(true);
  // Once the later reader signed off, the stream consumer deleted head and chunks.
  await eventually(async () => expect(await itemsOfSecret(id)).toEqual([]));
});
