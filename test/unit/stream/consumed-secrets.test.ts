import { TTL_DELETION_PRINCIPAL } from '../../../lambdas/definitions/webhooks';
import { consumedSecretIdOf } from '../../../lambdas/stream/consumed-secrets';
import { CREATED, SECRET_ID, chunk, head, streamRecord } from '../support/stream-records';

const viewedAt = CREATED + 60_000;

describe('which head updates leave a secret to be deleted', () => {
  test('the claim that takes an inline secret’s last view, whatever readers it counted', () => {
    const record = streamRecord('MODIFY', { old: head({ remaining: 1, readers: 2 }), new: head({ remaining: 0, readers: 3, viewedAt }) });
    expect(consumedSecretIdOf(record)).toBe(SECRET_ID);
  });

  test('a claim that leaves views: nothing', () => {
    const record = streamRecord('MODIFY', { old: head({ remaining: 3 }), new: head({ remaining: 2, readers: 1, viewedAt }) });
    expect(consumedSecretIdOf(record)).toBeUndefined();
  });

  test('the last view of a chunked secret while a claimant still reads it: not yet', () => {
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 1, readers: 1, chunks: 3 }),
      new: head({ remaining: 0, readers: 2, chunks: 3, viewedAt }),
    });
    expect(consumedSecretIdOf(record)).toBeUndefined();
  });

  test('the last reader of a consumed chunked secret signing off: now', () => {
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 0, readers: 1, chunks: 3, viewedAt }),
      new: head({ remaining: 0, readers: 0, chunks: 3, viewedAt }),
    });
    expect(consumedSecretIdOf(record)).toBe(SECRET_ID);
  });

  test('a reader signing off while views remain: nothing', () => {
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 2, readers: 1, chunks: 3, viewedAt }),
      new: head({ remaining: 2, readers: 0, chunks: 3, viewedAt }),
    });
    expect(consumedSecretIdOf(record)).toBeUndefined();
  });

  test('creations, removals, chunk items and TTL’s own records: nothing', () => {
    expect(consumedSecretIdOf(streamRecord('INSERT', { new: head() }))).toBeUndefined();
    expect(consumedSecretIdOf(streamRecord('REMOVE', { old: head({ remaining: 0 }) }))).toBeUndefined();
    expect(consumedSecretIdOf(streamRecord('MODIFY', { old: chunk(0), new: chunk(0) }))).toBeUndefined();
    const byTtl = {
      ...streamRecord('MODIFY', { old: head({ remaining: 1 }), new: head({ remaining: 0, viewedAt }) }),
      userIdentity: { type: 'Service', principalId: TTL_DELETION_PRINCIPAL },
    };
    expect(consumedSecretIdOf(byTtl)).toBeUndefined();
  });
});
