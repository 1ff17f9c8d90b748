import '../support/env';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as sdk from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import * as ours from '../../../lambdas/store/document-client';
import { startRecordingServer, type RecordingServer } from '../support/recording-server';

/**
 * Our document client against @aws-sdk/lib-dynamodb's, configured as the store configured it before
 * (removeUndefinedValues): for each command the store sends, both put the same request on the wire
 * and read the same answer into the same output.
 */

let server: RecordingServer;
let sdkClient: sdk.DynamoDBDocumentClient;
let ourClient: ours.DocumentClient;

beforeAll(async () => {
  server = await startRecordingServer();
  process.env.DYNAMODB_ENDPOINT = server.endpoint;
  process.env.AWS_ACCESS_KEY_ID = 'unit';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit';
  sdkClient = sdk.DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: server.endpoint }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  ourClient = new ours.DocumentClient();
});
afterAll(async () => {
  sdkClient.destroy();
  ourClient.destroy();
  delete process.env.DYNAMODB_ENDPOINT;
  await server.close();
});

const item = { pk: 'secret#a', sk: 'head', views: 3, data: 'aGVsbG8=', meta: { name: 'f.txt', gone: undefined }, list: [1, 'two', true, null], flag: false };
const key = { pk: 'secret#a', sk: 'head' };
const values = { ':one': 1, ':now': 1_750_000_000_000, ':owner': 'ab'.repeat(32), ':absent': undefined, ':slots': { '12': 4 } };

const cases = [
  ['GetCommand', () => ({ TableName: 't', Key: key, ConsistentRead: true }), { Item: marshall(item, { removeUndefinedValues: true }) }],
  ['PutCommand', () => ({ TableName: 't', Item: item, ConditionExpression: 'attribute_not_exists(pk)' }), {}],
  [
    'UpdateCommand',
    () => ({
      TableName: 't',
      Key: key,
      UpdateExpression: 'SET views = views - :one',
      ConditionExpression: 'expires > :now AND #o = :owner',
      ExpressionAttributeNames: { '#o': 'owner' },
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW' as const,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    }),
    { Attributes: marshall(item, { removeUndefinedValues: true }), ConsumedCapacity: { TableName: 't', CapacityUnits: 1 } },
  ],
  ['DeleteCommand', () => ({ TableName: 't', Key: key, ConditionExpression: 'views = :one', ExpressionAttributeValues: { ':one': 1 }, ReturnValues: 'ALL_OLD' as const }), { Attributes: marshall(key) }],
  [
    'BatchGetCommand',
    () => ({ RequestItems: { t: { Keys: [key, { pk: 'secret#a', sk: 'chunk#1' }], ConsistentRead: true, ProjectionExpression: '#a0', ExpressionAttributeNames: { '#a0': 'data' } } } }),
    { Responses: { t: [marshall({ data: 'x' })] }, UnprocessedKeys: { t: { Keys: [marshall({ pk: 'secret#a', sk: 'chunk#1' })], ConsistentRead: true } } },
  ],
  [
    'BatchWriteCommand',
    () => ({ RequestItems: { t: [{ PutRequest: { Item: item } }, { DeleteRequest: { Key: key } }] } }),
    { UnprocessedItems: { t: [{ PutRequest: { Item: marshall(item, { removeUndefinedValues: true }) } }, { DeleteRequest: { Key: marshall(key) } }] } },
  ],
] as const;

test.each(cases)('%s: the same request and the same output as the SDK’s document client', async (name, input, answer) => {
  server.answer = () => ({ status: 200, body: answer });
  server.requests.length = 0;

  const SdkCommand = sdk[name] as unknown as new (input: unknown) => Parameters<typeof sdkClient.send>[0];
  const OurCommand = ours[name] as unknown as new (input: unknown) => Parameters<typeof ourClient.send>[0];
  const { $metadata, ...sdkOutput } = (await sdkClient.send(new SdkCommand(input()))) as { $metadata: unknown };
  const ourOutput = await ourClient.send(new OurCommand(input()));

  expect($metadata).toBeDefined();
  expect(ourOutput).toEqual(sdkOutput);
  const [sdkRequest, ourRequest] = server.requests;
  expect(ourRequest?.headers['x-amz-target']).toBe(sdkRequest?.headers['x-amz-target']);
  expect(ourRequest?.headers['content-type']).toBe(sdkRequest?.headers['content-type']);
  expect(JSON.parse(ourRequest?.body ?? '')).toEqual(JSON.parse(sdkRequest?.body ?? ''));
  // The same signed headers, but for the SDK's own (invocation id, attempt, user agent).
  const signedHeaders = (authorization: unknown) => /SignedHeaders=([^,]+)/.exec(String(authorization))?.[1]?.split(';');
  const sdkOwn = /^(amz-sdk-|x-amz-user-agent$)/;
  expect(signedHeaders(ourRequest?.headers.authorization)).toEqual(
    signedHeaders(sdkRequest?.headers.authorization)?.filter((name) => !sdkOwn.test(name)),
  );
});

test('the input a caller passed is left as it was', async () => {
  const input = { TableName: 't', Item: { ...item, meta: { ...item.meta } } };
  const before = structuredClone(input);
  await ourClient.send(new ours.PutCommand(input));
  expect(input).toEqual(before);
});

test('binary given as base64 goes on the wire as the SDK sends its bytes, and comes back as that base64', async () => {
  const base64 = 'aGVsbG8gd29ybGQ=';
  server.answer = () => ({ status: 200, body: { Item: { ...marshall(key), data: { B: base64 } } } });
  server.requests.length = 0;

  await sdkClient.send(new sdk.PutCommand({ TableName: 't', Item: { ...key, data: Buffer.from(base64, 'base64') } }));
  await ourClient.send(new ours.PutCommand({ TableName: 't', Item: { ...key, data: new ours.BinaryAsBase64(base64) } }));
  const [sdkRequest, ourRequest] = server.requests;
  expect(JSON.parse(ourRequest?.body ?? '')).toEqual(JSON.parse(sdkRequest?.body ?? ''));
  expect(JSON.parse(ourRequest?.body ?? '').Item.data).toEqual({ B: base64 });

  const { Item } = await ourClient.send(new ours.GetCommand({ TableName: 't', Key: key }));
  expect(Item).toEqual({ ...key, data: base64 });
});
