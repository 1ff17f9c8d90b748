import { createHash } from 'node:crypto';
import * as sdk from '@aws-sdk/client-sqs';
import { ChangeMessageVisibilityCommand, QueueClient, SendMessageCommand } from '../../../lambdas/queue/sqs';
import { startRecordingServer, type RecordingServer } from '../support/recording-server';

/** Our SQS client against @aws-sdk/client-sqs: the same requests on the wire, the same integrity check. */

let server: RecordingServer;
let sdkClient: sdk.SQSClient;
let ourClient: QueueClient;

beforeAll(async () => {
  server = await startRecordingServer();
  process.env.SQS_ENDPOINT = server.endpoint;
  process.env.AWS_REGION = 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID = 'unit';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit';
  sdkClient = new sdk.SQSClient({ endpoint: server.endpoint });
  ourClient = new QueueClient();
});
afterAll(async () => {
  sdkClient.destroy();
  ourClient.destroy();
  delete process.env.SQS_ENDPOINT;
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const queueUrl = 'https://sqs.us-east-1.amazonaws.com/000000000000/jobs';
const body = JSON.stringify({ event: 'secret.viewed', note: 'ünïcode ✓' });
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

test('SendMessage: the same request as the SDK’s, and the message id back', async () => {
  server.answer = () => ({ status: 200, body: { MessageId: 'm-1', MD5OfMessageBody: md5(body) } });

  await sdkClient.send(new sdk.SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
  await expect(ourClient.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }))).resolves.toMatchObject({ MessageId: 'm-1' });

  const [sdkRequest, ourRequest] = server.requests;
  expect(ourRequest?.headers['x-amz-target']).toBe(sdkRequest?.headers['x-amz-target']);
  expect(JSON.parse(ourRequest?.body ?? '')).toEqual(JSON.parse(sdkRequest?.body ?? ''));
});

test('SendMessage fails, as the SDK’s does, when SQS reports the digest of another body', async () => {
  server.answer = () => ({ status: 200, body: { MessageId: 'm-2', MD5OfMessageBody: md5('something else') } });

  await expect(sdkClient.send(new sdk.SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }))).rejects.toThrow();
  await expect(ourClient.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }))).rejects.toThrow(/MD5/);
});

test('ChangeMessageVisibility: the same request as the SDK’s', async () => {
  server.answer = () => ({ status: 200, body: {} });
  const input = { QueueUrl: queueUrl, ReceiptHandle: 'receipt', VisibilityTimeout: 4 };

  await sdkClient.send(new sdk.ChangeMessageVisibilityCommand(input));
  await ourClient.send(new ChangeMessageVisibilityCommand(input));

  const [sdkRequest, ourRequest] = server.requests;
  expect(ourRequest?.headers['x-amz-target']).toBe(sdkRequest?.headers['x-amz-target']);
  expect(JSON.parse(ourRequest?.body ?? '')).toEqual(JSON.parse(sdkRequest?.body ?? ''));
});
