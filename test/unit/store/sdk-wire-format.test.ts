import '../support/env';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { marshall } from '@aws-sdk/util-dynamodb';
import { slotIndex } from '../../../lambdas/core/sliding-window';
import { authenticateAndCount } from '../../../lambdas/store/key-store';
import { keyItem } from '../support/key-item';

/**
 * The real client stack (lambdas/store/dynamo.ts's document client and its signed HTTP client)
 * against a fake DynamoDB HTTP endpoint that answers like DynamoDB does on the wire. This checks
 * what the mocked tests assume: a ConditionalCheckFailedException carries the old item in wire
 * format, and the store reads it correctly.
 */

let server: Server;
let answer: (target: string, body: Record<string, unknown>) => { status: number; body: unknown };
const requests: { target: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const target = String(request.headers['x-amz-target'] ?? '');
      const body = JSON.parse(raw) as Record<string, unknown>;
      requests.push({ target, body });
      const reply = answer(target, body);
      response.writeHead(reply.status, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.AWS_ACCESS_KEY_ID = 'unit';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit';
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests.length = 0;
});

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
  expect(requests.map((r) => r.target)).toEqual(['DynamoDB_20120810.UpdateItem']);
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
    'ReturnValuesOnConditionCheckFailure' in body
      ? conditionFailure(old)
      : { status: 200, body: { Attributes: marshall({ ...old, rl: { [current - 3]: 40, [current]: 3 } }) } };

  const result = await authenticateAndCount(keyHash, now);

  expect(result).toMatchObject({ outcome: 'authenticated', slots: { [current - 3]: 40, [current]: 3 } });
  expect(requests).toHaveLength(2);
  const values = requests[1]!.body.ExpressionAttributeValues as Record<string, unknown>;
  expect(values[':slots']).toEqual({ M: { [String(current - 3)]: { N: '40' }, [String(current)]: { N: '3' } } });
});
