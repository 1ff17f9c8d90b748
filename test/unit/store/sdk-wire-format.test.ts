import '../support/env';
import { marshall } from '@aws-sdk/util-dynamodb';
import { slotIndex } from '#lambdas/rules/sliding-window';
import { keyItem } from '../support/key-item';
import { startRecordingServer, type RecordingServer } from '../support/recording-server';

/**
 * The real client stack (lambdas/store/dynamo.ts's document client over the SDK's HTTP stack)
 * against a fake DynamoDB HTTP endpoint that answers like DynamoDB does on the wire. This checks
 * what the mocked tests assume: a ConditionalCheckFailedException carries the old item in wire
 * format, and the store reads it correctly.
 */

let server: RecordingServer;
/** Imported once the endpoint is set: the store's client is built when its module loads. */
let authenticateAndCount: (typeof import('#lambdas/store/key-store'))['authenticateAndCount'];
let answer: (target: string, body: Record<string, unknown>) => { status: number; body: unknown };

beforeAll(async () => {
  server = await startRecordingServer();
  server.answer = (request) => answer(String(request.headers['x-amz-target'] ?? ''), JSON.parse(request.body) as Record<string, unknown>);
  process.env.DYNAMODB_ENDPOINT = server.endpoint;
  process.env.AWS_ACCESS_KEY_ID = 'unit';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit';
  ({ authenticateAndCount } = await import('#lambdas/store/key-store'));
});

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
});

/** What the server received: each call's X-Amz-Target and JSON body. */
const received = (): { target: string; body: Record<string, unknown> }[] =>
  server.requests.map((request) => ({
    target: String(request.headers['x-amz-target'] ?? ''),
    body: JSON.parse(request.body) as Record<string, unknown>,
  }));

const conditionFailure = (item?: object) => ({
  status: 400,
  body: {
    __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
    message: 'The conditional request failed',
    ...(item ? { Item: marshall(item as Record<string, unknown>) } : {}),
  },
});

const keyHash = 'ef'.repeat(32);
const pk = `key#${keyHash}`;
const now = 1_750_000_001_000;

test('an expired key is reported expired from the wire-format item of the failed condition', async () => {
  answer = () => conditionFailure(keyItem(pk, { expires: now - 1, rl: { [slotIndex(now) - 1]: 3 } }));
  await expect(authenticateAndCount(keyHash, now)).resolves.toEqual({ outcome: 'expired' });
  expect(received().map((r) => r.target)).toEqual(['DynamoDB_20120810.UpdateItem']);
});

test('an unknown key (no item in the failure) is reported unknown', async () => {
  answer = () => conditionFailure();
  await expect(authenticateAndCount(keyHash, now)).resolves.toEqual({ outcome: 'unknown' });
});

test('an over-full live key is pruned from the wire-format item, keeping its in-window counts', async () => {
  const current = slotIndex(now);
  const stale = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [String(current - 30 - i), 1]));
  const old = keyItem(pk, { rl: { ...stale, [current - 3]: 40, [current]: 2 } });
  answer = (_target, body) =>
    !(':slots' in (body.ExpressionAttributeValues as Record<string, unknown>))
      ? conditionFailure(old)
      : { status: 200, body: { Attributes: marshall({ ...old, rl: { [current - 3]: 40, [current]: 3 } }) } };

  const result = await authenticateAndCount(keyHash, now);

  expect(result).toMatchObject({ outcome: 'authenticated', slots: { [current - 3]: 40, [current]: 3 } });
  expect(received()).toHaveLength(2);
  const values = received()[1]!.body.ExpressionAttributeValues as Record<string, unknown>;
  expect(values[':slots']).toEqual({ M: { [String(current - 3)]: { N: '40' }, [String(current)]: { N: '3' } } });
});
