import { TTL_DELETION_PRINCIPAL } from '#lambdas/definitions/webhooks';
import { webhookEventId, webhookJobOf } from '#lambdas/webhooks/events';
import { CREATED, SECRET_ID, chunk, head, streamRecord } from '../support/stream-records';

const viewedAt = CREATED + 60_000;

describe('which committed changes are webhook events', () => {
  test('a new head item is secret.created, timed at the creation', () => {
    expect(webhookJobOf(streamRecord('INSERT', { new: head() }))).toEqual({
      eventId: webhookEventId(SECRET_ID, 'secret.created', 3),
      owner: 'owner-hash',
      event: { event: 'secret.created', timestamp: CREATED, data: { id: SECRET_ID } },
    });
  });

  test("a request's creation is nothing; its fulfilment is request.fulfilled to the requester, timed at the fulfilment", () => {
    const open = head({ remaining: 0, views: 1, requestState: 'open', reader: 'owner-hash', publicKey: 'BA', data: undefined });
    expect(webhookJobOf(streamRecord('INSERT', { new: open }))).toBeUndefined();
    const fulfilledAt = CREATED + 5_000;
    const fulfilled = { ...open, requestState: 'fulfilled', remaining: 1, fulfilledAt, data: 'c2VjcmV0' };
    expect(webhookJobOf(streamRecord('MODIFY', { old: open, new: fulfilled }))).toEqual({
      eventId: webhookEventId(SECRET_ID, 'request.fulfilled', 1),
      owner: 'owner-hash',
      event: { event: 'request.fulfilled', timestamp: fulfilledAt, data: { id: SECRET_ID } },
    });
    // Its answer's one view is the last: secret.expired, as any secret's.
    const read = { ...fulfilled, remaining: 0, viewedAt };
    expect(webhookJobOf(streamRecord('MODIFY', { old: fulfilled, new: read }))?.event.event).toBe('secret.expired');
  });

  test('a claim that leaves views is secret.viewed, timed at the view', () => {
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 3 }),
      new: head({ remaining: 2, viewedAt, readers: 1 }),
    });
    expect(webhookJobOf(record)?.event).toEqual({ event: 'secret.viewed', timestamp: viewedAt, data: { id: SECRET_ID } });
  });

  test('the claim that takes the last view is secret.expired', () => {
    const record = streamRecord('MODIFY', { old: head({ remaining: 1, viewedAt: 1 }), new: head({ remaining: 0, viewedAt }) });
    expect(webhookJobOf(record)?.event.event).toBe('secret.expired');
  });

  test('the wrong proof that burns a gated secret is secret.burned, timed at the burn, not secret.expired', () => {
    const burnedAt = viewedAt + 5_000;
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 1, attempts: 1, gate: 'g' }),
      new: head({ remaining: 0, attempts: 0, gate: 'g', burnedAt, readers: 0 }),
    });
    expect(webhookJobOf(record)).toEqual({
      eventId: webhookEventId(SECRET_ID, 'secret.burned', 0),
      owner: 'owner-hash',
      event: { event: 'secret.burned', timestamp: burnedAt, data: { id: SECRET_ID } },
    });
  });

  test('a wrong proof that leaves attempts is nothing', () => {
    const record = streamRecord('MODIFY', { old: head({ attempts: 5, gate: 'g' }), new: head({ attempts: 4, gate: 'g' }) });
    expect(webhookJobOf(record)).toBeUndefined();
  });

  test('a chunked claim signing off as reader (remaining unchanged) is nothing', () => {
    const record = streamRecord('MODIFY', {
      old: head({ remaining: 0, readers: 2, viewedAt, chunks: 3 }),
      new: head({ remaining: 0, readers: 1, viewedAt, chunks: 3 }),
    });
    expect(webhookJobOf(record)).toBeUndefined();
  });

  test("removals are nothing: the last view's deletion, a revocation, a TTL deletion", () => {
    expect(webhookJobOf(streamRecord('REMOVE', { old: head({ remaining: 0, viewedAt }) }))).toBeUndefined();
    expect(webhookJobOf(streamRecord('REMOVE', { old: head({ remaining: 2 }) }))).toBeUndefined();
    const ttl = { type: 'Service', principalId: TTL_DELETION_PRINCIPAL };
    expect(webhookJobOf(streamRecord('REMOVE', { old: head() }, ttl))).toBeUndefined();
  });

  test('any change made by the TTL service is nothing, whatever its kind', () => {
    const ttl = { type: 'Service', principalId: TTL_DELETION_PRINCIPAL };
    expect(webhookJobOf(streamRecord('INSERT', { new: head() }, ttl))).toBeUndefined();
  });

  test('chunk items are nothing', () => {
    expect(webhookJobOf(streamRecord('INSERT', { new: chunk(0) }))).toBeUndefined();
    expect(webhookJobOf(streamRecord('REMOVE', { old: chunk(1) }))).toBeUndefined();
  });

  test('a head update that is not one view (malformed or foreign) is nothing', () => {
    expect(webhookJobOf(streamRecord('MODIFY', { old: head({ remaining: 3 }), new: head({ remaining: 1, viewedAt }) }))).toBeUndefined();
    expect(webhookJobOf(streamRecord('MODIFY', { old: head({ remaining: 3 }), new: head({ remaining: 2 }) }))).toBeUndefined();
    expect(webhookJobOf(streamRecord('INSERT', { new: head({ owner: undefined }) }))).toBeUndefined();
  });
});

describe('event ids', () => {
  test('the same change gives the same id, so a retried stream batch re-sends under it', () => {
    const before = head({ remaining: 3 });
    const after = head({ remaining: 2, viewedAt });
    const first = webhookJobOf(streamRecord('MODIFY', { old: before, new: after }));
    const retried = webhookJobOf(streamRecord('MODIFY', { old: before, new: after }));
    expect(retried?.eventId).toBe(first?.eventId);
  });

  test('every event of a secret has its own id', () => {
    const ids = new Set([
      webhookEventId(SECRET_ID, 'secret.created', 3),
      webhookEventId(SECRET_ID, 'secret.viewed', 2),
      webhookEventId(SECRET_ID, 'secret.viewed', 1),
      webhookEventId(SECRET_ID, 'secret.expired', 0),
      webhookEventId('ZZZdEfGhIjKlMnOpQrStUv', 'secret.created', 3),
    ]);
    expect(ids.size).toBe(5);
  });

  test('an id does not reveal the secret id, which is a capability', () => {
    const id = webhookEventId(SECRET_ID, 'secret.created', 1);
    expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(id).not.toContain(SECRET_ID);
  });
});
