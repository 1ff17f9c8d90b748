import { RECEIPT_LIFETIME_MS } from '#contract/limits';
import { SECRET_RECEIPT_SK } from '#lambdas/definitions/tables';
import { TTL_DELETION_PRINCIPAL } from '#lambdas/definitions/webhooks';
import { receiptAnswersAt, stateOfHead } from '#lambdas/rules/receipt';
import { receiptOfRemoval } from '#lambdas/webhooks/stream/receipts';
import { webhookJobOf } from '#lambdas/webhooks/events';
import { CREATED, SECRET_ID, chunk, head, streamRecord } from '#test/unit/support/stream-records';

const TTL = { type: 'Service', principalId: TTL_DELETION_PRINCIPAL };
const viewed = [CREATED + 1_000, CREATED + 2_000];
const receiptItem = {
  pk: SECRET_ID,
  sk: SECRET_RECEIPT_SK,
  owner: 'owner-hash',
  state: 'used',
  views: 2,
  remaining: 0,
  created: CREATED,
  expires: CREATED + 1,
  viewed,
  ttl: 1,
};

describe('the receipt a head removal leaves', () => {
  test.each([
    ['the last view, deleted by the stream consumer', head({ remaining: 0, views: 2, viewed }), undefined, 'used'],
    ['a burn', head({ remaining: 0, attempts: 0, burnedAt: CREATED + 5 }), undefined, 'burned'],
    ['the owner’s revocation, views left', head({ remaining: 1, views: 2, viewed: viewed.slice(0, 1) }), undefined, 'revoked'],
    ['DynamoDB TTL, views left', head({ remaining: 2 }), TTL, 'expired'],
    ['DynamoDB TTL of a used head the consumer failed to delete', head({ remaining: 0 }), TTL, 'used'],
  ])('%s: %s', (_, old, identity, state) => {
    const removed = receiptOfRemoval(streamRecord('REMOVE', { old }, identity));
    expect(removed).toEqual({
      id: SECRET_ID,
      owner: 'owner-hash',
      receipt: { state, views: old.views, remaining: old.remaining, created: CREATED, expires: CREATED + 3_600_000, viewed: old.viewed ?? [] },
    });
    // A removal carries no webhook event.
    expect(webhookJobOf(streamRecord('REMOVE', { old }, identity))).toBeUndefined();
  });

  test('no receipt, and no event, for a failed create’s head, which it marked undone before deleting it', () => {
    const written = head({ remaining: 2 });
    const marked = head({ remaining: 2, undoneAt: CREATED + 50 });
    const mark = streamRecord('MODIFY', { old: written, new: marked });
    const removal = streamRecord('REMOVE', { old: marked });
    expect([receiptOfRemoval(mark), receiptOfRemoval(removal)]).toEqual([undefined, undefined]);
    expect([webhookJobOf(mark), webhookJobOf(removal)]).toEqual([undefined, undefined]);
    // The same head removed unmarked is a revocation.
    expect(receiptOfRemoval(streamRecord('REMOVE', { old: written }))?.receipt.state).toBe('revoked');
  });

  test('no receipt, and no event, for a receipt item’s own write and TTL deletion, nor for chunks', () => {
    const records = [
      streamRecord('INSERT', { new: receiptItem }),
      streamRecord('REMOVE', { old: receiptItem }, TTL),
      streamRecord('REMOVE', { old: chunk(0) }),
      streamRecord('MODIFY', { old: head(), new: head({ remaining: 2 }) }),
    ];
    for (const record of records) expect(receiptOfRemoval(record)).toBeUndefined();
    for (const record of records.slice(0, 3)) expect(webhookJobOf(record)).toBeUndefined();
  });
});

describe('a live head’s state and the lifetime', () => {
  const facts = { views: 2, remaining: 2, created: CREATED, expires: CREATED + 10 };
  test('active until expires, then expired; used and burned whatever the time', () => {
    expect(stateOfHead(facts, CREATED + 9)).toBe('active');
    expect(stateOfHead(facts, CREATED + 10)).toBe('expired');
    expect(stateOfHead({ ...facts, remaining: 0 }, CREATED + 11)).toBe('used');
    expect(stateOfHead({ ...facts, remaining: 0, burnedAt: CREATED + 1 }, CREATED)).toBe('burned');
  });
  test('answers until 7 days after expires', () => {
    expect(receiptAnswersAt(CREATED, CREATED + RECEIPT_LIFETIME_MS - 1)).toBe(true);
    expect(receiptAnswersAt(CREATED, CREATED + RECEIPT_LIFETIME_MS)).toBe(false);
  });
});
