import { TTL_DELETION_PRINCIPAL } from '#lambdas/definitions/webhooks';
import { CLAIMANTS_DONE_MS, CLAIM_RETRY_WINDOW_MS, REPLAY_RETENTION_MS } from '#contract/limits';
import { KEYED_CLAIM_ATTRIBUTE_PREFIX } from '#lambdas/definitions/tables';
import { consumedSecretOf, revokedChunksOf } from '#lambdas/webhooks/stream/consumed-secrets';
import { CREATED, SECRET_ID, chunk, head, streamRecord } from '#test/unit/support/stream-records';

const viewedAt = CREATED + 60_000;

describe('which head updates leave a secret to be deleted', () => {
  test('the claim that takes an inline secret’s last view, whatever readers it counted, once its retries are over', () => {
    const record = streamRecord('MODIFY', { old: head({ remaining: 1, readers: 2 }), new: head({ remaining: 0, readers: 3, viewedAt }) });
    const consumed = consumedSecretOf(record);
    expect(consumed).toMatchObject({ id: SECRET_ID, chunks: 0 });
    // That claim may still repeat its update, and the repeat needs the data.
    expect(consumed?.deletableAt).toBeGreaterThan(viewedAt + CLAIM_RETRY_WINDOW_MS);
  });

  test('a burned gated secret (no views, no attempts), never viewed: at once, inline or chunked', () => {
    const burned = { remaining: 0, attempts: 0, burnedAt: viewedAt, readers: 0 };
    expect(consumedSecretOf(streamRecord('MODIFY', { old: head({ attempts: 1 }), new: head(burned) }))?.deletableAt).toBeLessThan(viewedAt);
    expect(consumedSecretOf(streamRecord('MODIFY', { old: head({ attempts: 1, chunks: 3 }), new: head({ ...burned, chunks: 3 }) }))).toEqual({
      id: SECRET_ID,
      chunks: 3,
      deletableAt: 0,
    });
  });

  test('an open secret request rewritten (a keyed create repeated): nothing, though it has no view', () => {
    const open = { remaining: 0, views: 1, requestState: 'open' };
    expect(consumedSecretOf(streamRecord('MODIFY', { old: head(open), new: head(open) }))).toBeUndefined();
  });

  test('a claim that leaves views: nothing', () => {
    const record = streamRecord('MODIFY', { old: head({ remaining: 3 }), new: head({ remaining: 2, readers: 1, viewedAt }) });
    expect(consumedSecretOf(record)).toBeUndefined();
  });

  test('the last view of a chunked secret while claimants still read it: once every claim of it has surely ended', () => {
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 1, readers: 1, chunks: 3 }),
      new: head({ remaining: 0, readers: 2, chunks: 3, viewedAt }),
    });
    // Their sign-offs delete it sooner; one the store never settles would keep `readers` above 0 for good.
    expect(consumedSecretOf(record)).toEqual({ id: SECRET_ID, chunks: 3, deletableAt: viewedAt + CLAIMANTS_DONE_MS });
  });

  test('a reader signing off while another still reads the consumed chunked secret: nothing more', () => {
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 0, readers: 2, chunks: 3, viewedAt }),
      new: head({ remaining: 0, readers: 1, chunks: 3, viewedAt }),
    });
    expect(consumedSecretOf(record)).toBeUndefined();
  });

  test('a keyed last view of a chunked secret: from that view’s update alone, once its repeat can no longer come', () => {
    const keyedLastView = { [`${KEYED_CLAIM_ATTRIBUTE_PREFIX}token`]: 0 };
    const taken = streamRecord('MODIFY', {
      old: head({ remaining: 1, readers: 0, chunks: 3 }),
      new: head({ remaining: 0, readers: 1, chunks: 3, viewedAt, ...keyedLastView }),
    });
    expect(consumedSecretOf(taken)).toEqual({ id: SECRET_ID, chunks: 3, deletableAt: viewedAt + REPLAY_RETENTION_MS });
    const signedOff = streamRecord('MODIFY', {
      old: head({ remaining: 0, readers: 1, chunks: 3, viewedAt, ...keyedLastView }),
      new: head({ remaining: 0, readers: 0, chunks: 3, viewedAt, ...keyedLastView }),
    });
    expect(consumedSecretOf(signedOff)).toBeUndefined();
  });

  test('the last reader of a consumed chunked secret signing off: at once, with its chunk count', () => {
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 0, readers: 1, chunks: 3, viewedAt }),
      new: head({ remaining: 0, readers: 0, chunks: 3, viewedAt }),
    });
    // Every claim of it has finished: the last one signed off after its own update.
    expect(consumedSecretOf(record)).toEqual({ id: SECRET_ID, chunks: 3, deletableAt: 0 });
  });

  test('a reader signing off while views remain: nothing', () => {
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 2, readers: 1, chunks: 3, viewedAt }),
      new: head({ remaining: 2, readers: 0, chunks: 3, viewedAt }),
    });
    expect(consumedSecretOf(record)).toBeUndefined();
  });

  test('creations, removals, chunk items and TTL’s own records: nothing', () => {
    expect(consumedSecretOf(streamRecord('INSERT', { new: head() }))).toBeUndefined();
    expect(consumedSecretOf(streamRecord('REMOVE', { old: head({ remaining: 0 }) }))).toBeUndefined();
    expect(consumedSecretOf(streamRecord('MODIFY', { old: chunk(0), new: chunk(0) }))).toBeUndefined();
    const byTtl = {
      ...streamRecord('MODIFY', { old: head({ remaining: 1 }), new: head({ remaining: 0, viewedAt }) }),
      userIdentity: { type: 'Service', principalId: TTL_DELETION_PRINCIPAL },
    };
    expect(consumedSecretOf(byTtl)).toBeUndefined();
  });
});

describe('which removals leave chunks to delete once more', () => {
  const answer = { chunks: 3, chunkId: `${SECRET_ID}.token`, reader: 'requester' };

  test('a revoked chunked answer (views left): its chunks, under the id its head named', () => {
    expect(revokedChunksOf(streamRecord('REMOVE', { old: head({ ...answer, remaining: 1 }) }))).toEqual({
      id: SECRET_ID,
      chunks: 3,
      chunkId: answer.chunkId,
    });
  });

  test('a revoked chunked secret (views left): its chunks, under its own id', () => {
    expect(revokedChunksOf(streamRecord('REMOVE', { old: head({ remaining: 1, chunks: 3 }) }))).toEqual({ id: SECRET_ID, chunks: 3 });
  });

  test('a secret whose last view was taken (its deletion deletes the chunks), an inline one, a TTL deletion: nothing', () => {
    expect(revokedChunksOf(streamRecord('REMOVE', { old: head({ ...answer, remaining: 0 }) }))).toBeUndefined();
    expect(revokedChunksOf(streamRecord('REMOVE', { old: head({ remaining: 0, chunks: 3 }) }))).toBeUndefined();
    expect(revokedChunksOf(streamRecord('REMOVE', { old: head({ remaining: 1, reader: 'requester' }) }))).toBeUndefined();
    expect(revokedChunksOf(streamRecord('REMOVE', { old: head({ remaining: 1 }) }))).toBeUndefined();
    const byTtl = {
      ...streamRecord('REMOVE', { old: head({ remaining: 1, chunks: 3 }) }),
      userIdentity: { type: 'Service', principalId: TTL_DELETION_PRINCIPAL },
    };
    expect(revokedChunksOf(byTtl)).toBeUndefined();
  });
});
