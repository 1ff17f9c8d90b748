import { IDEMPOTENCY, SECRET_ID_PATTERN } from '#contract/limits';
import {
  bodyDigest,
  claimTokenOf,
  idempotencyScope,
  isWellFormedIdempotencyKey,
  replayableSecretId,
  standingOf,
  type IdempotencyRecord,
} from '#lambdas/rules/idempotency';

describe('the Idempotency-Key header', () => {
  test.each(['a'.repeat(16), 'A'.repeat(64), 'abc-DEF_0123456789', 'Zm9vYmFyYmF6cXV4cXV1dXU'])('%j is well formed', (key) => {
    expect(isWellFormedIdempotencyKey(key)).toBe(true);
  });

  test.each([
    'a'.repeat(15),
    'a'.repeat(65),
    '',
    'has a space in it!',
    'dots.are.refused.x',
    'plus+slash/equal=',
    'é'.repeat(16),
    'a'.repeat(16) + '\n',
  ])('%j is refused', (key) => expect(isWellFormedIdempotencyKey(key)).toBe(false));
});

describe('names derived from a request', () => {
  test('the scope depends on route, id and key, and reveals none of them', () => {
    const scope = idempotencyScope('GET /secrets/{id}', 'secret-id', 'key-aaaaaaaaaaaa');
    expect(scope).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(scope).not.toContain('secret');
    expect(idempotencyScope('DELETE /secrets/{id}', 'secret-id', 'key-aaaaaaaaaaaa')).not.toBe(scope);
    expect(idempotencyScope('GET /secrets/{id}', 'other-id', 'key-aaaaaaaaaaaa')).not.toBe(scope);
    expect(idempotencyScope('GET /secrets/{id}', 'secret-id', 'key-bbbbbbbbbbbb')).not.toBe(scope);
  });

  test('a claim token and a secret id follow the record, and the id needs the API key', () => {
    expect(claimTokenOf('scope', 1)).toBe(claimTokenOf('scope', 1));
    expect(claimTokenOf('scope', 2)).not.toBe(claimTokenOf('scope', 1));
    const id = replayableSecretId('svc_key', 'scope', 1);
    expect(id).toMatch(SECRET_ID_PATTERN);
    expect(replayableSecretId('svc_key', 'scope', 1)).toBe(id);
    expect(replayableSecretId('svc_other', 'scope', 1)).not.toBe(id);
    expect(replayableSecretId('svc_key', 'scope', 2)).not.toBe(id);
  });
});

describe('where a request stands', () => {
  const now = 1_000_000_000;
  const record = (ageMs: number, body?: string): IdempotencyRecord => ({ at: now - ageMs, by: 'first', ...(body ? { body } : {}) });

  test('its own record: the first', () => {
    expect(standingOf(record(0), 'first', now, undefined)).toEqual({ kind: 'first' });
  });

  test("another request's record: a repeat, which may have overtaken a first still at work", () => {
    expect(standingOf(record(0), 'repeat', now, undefined)).toEqual({ kind: 'repeat', mayBeInFlight: true });
    expect(standingOf(record(IDEMPOTENCY.inFlightMs), 'repeat', now, undefined)).toEqual({ kind: 'repeat', mayBeInFlight: false });
  });

  test('another body: reused', () => {
    expect(standingOf(record(0, bodyDigest('{"data":"a"}')), 'repeat', now, bodyDigest('{"data":"b"}'))).toEqual({ kind: 'reused' });
    expect(standingOf(record(0, bodyDigest('{"data":"a"}')), 'repeat', now, bodyDigest('{"data":"a"}'))).toMatchObject({ kind: 'repeat' });
  });
});
