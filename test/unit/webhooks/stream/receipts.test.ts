import { RECEIPT_LIFETIME_MS } from '#contract/limits';
import { SECRET_RECEIPT_SK } from '#lambdas/definitions/tables';
import { TTL_DELETION_PRINCIPAL } from '#lambdas/definitions/webhooks';
import { receiptAnswersAt, stateOfHead } from '#lambdas/rules/receipt';
import { receiptToKeep } from '#lambdas/webhooks/stream/receipts';
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

describe('the receipt a secret leaves', () => {
  // Written when the last view or the burn is taken, before the stream consumer deletes the head,
  // so that a status read after the claim's answer never finds neither (docs/api.md, Receipts).
  test.each([
    ['the last view', head({ remaining: 1, views: 2, viewed: viewed.slice(0, 1) }), head({ remaining: 0, views: 2, viewed }), 'used'],
    ['a burn', head({ remaining: 1, attempts: 1 }), head({ remaining: 0, attempts: 0, burnedAt: CREATED + 5 }), 'burned'],
  ])('%s: kept from the update that took it, before the head is deleted', (_, before, after, state) => {
    expect(receiptToKeep(streamRecord('MODIFY', { old: before, new: after }))).toEqual({
      id: SECRET_ID,
      owner: 'owner-hash',
      receipt: { state, views: after.views, remaining: 0, created: CREATED, expires: CREATED + 3_600_000, viewed: after.viewed ?? [] },
    });
    // The consumer's deletion of that head then keeps nothing more.
    expect(receiptToKeep(streamRecord('REMOVE', { old: after }))).toBeUndefined();
  });

  test('a chunk reader signing off keeps nothing, but the last one, which lets the consumer delete, keeps it again', () => {
    const used = head({ remaining: 0, views: 2, viewed, chunks: 2, readers: 2 });
    expect(receiptToKeep(streamRecord('MODIFY', { old: used, new: { ...used, readers: 1 } }))).toBeUndefined();
    expect(receiptToKeep(streamRecord('MODIFY', { old: { ...used, readers: 1 }, new: { ...used, readers: 0 } }))?.receipt.state).toBe('used');
  });

  test.each([
    ['the owner’s revocation, views left', head({ remaining: 1, views: 2, viewed: viewed.slice(0, 1) }), undefined, 'revoked'],
    ['DynamoDB TTL, views left', head({ remaining: 2 }), TTL, 'expired'],
    ['DynamoDB TTL of a used head the consumer failed to delete', head({ remaining: 0 }), TTL, 'used'],
  ])('%s: %s', (_, old, identity, state) => {
    const removed = receiptToKeep(streamRecord('REMOVE', { old }, identity));
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
    expect([receiptToKeep(mark), receiptToKeep(removal)]).toEqual([undefined, undefined]);
    expect([webhookJobOf(mark), webhookJobOf(removal)]).toEqual([undefined, undefined]);
    // The same head removed unmarked is a revocation.
    expect(receiptToKeep(streamRecord('REMOVE', { old: written }))?.receipt.state).toBe('revoked');
  });

  test('no receipt, and no event, for a receipt item’s own write and TTL deletion, nor for chunks', () => {
    const records = [
      streamRecord('INSERT', { new: receiptItem }),
      streamRecord('REMOVE', { old: receiptItem }, TTL),
      streamRecord('REMOVE', { old: chunk(0) }),
      streamRecord('MODIFY', { old: head(), new: head({ remaining: 2 }) }),
    ];
    for (const record of records) expect(receiptToKeep(record)).toBeUndefined();
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
