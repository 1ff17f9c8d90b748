import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac } from 'node:crypto';
import { AwsJsonClient, AwsServiceError, serviceEndpoint, type AwsJsonService } from '../../../lambdas/aws/aws-json-client';
import { startRecordingServer, type ReceivedRequest, type RecordingServer } from '../support/recording-server';

const SERVICE: AwsJsonService = { name: 'dynamodb', targetPrefix: 'DynamoDB_20120810', endpointVariable: 'TEST_AWS_JSON_ENDPOINT', retry: { maxAttempts: 4, baseDelayMs: 25 } };
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };

let server: RecordingServer;
let client: AwsJsonClient;

beforeAll(async () => {
  server = await startRecordingServer();
  process.env[SERVICE.endpointVariable] = server.endpoint;
  process.env.AWS_REGION = 'eu-west-1';
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  process.env.AWS_SESSION_TOKEN = CREDENTIALS.sessionToken;
});
afterAll(async () => {
  delete process.env.AWS_SESSION_TOKEN;
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.answer = () => ({ status: 200, body: {} });
  client = new AwsJsonClient(SERVICE);
  // No backoff pauses: the delays themselves are retry-policy's to test.
  jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  client.destroy();
  jest.restoreAllMocks();
});

/** AWS's signer, run independently over the request exactly as the server received it. */
async function expectedAuthorization(request: ReceivedRequest): Promise<string> {
  const authorization = String(request.headers.authorization);
  const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const headers = Object.fromEntries(signedNames.map((name) => [name, String(request.headers[name])]));
  const stamp = String(request.headers['x-amz-date']);
  const signingDate = new Date(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
  );
  class Sha256 {
    private readonly hash;
    constructor(secret?: string | Uint8Array) {
      this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
    }
    update(data: string | Uint8Array) {
      this.hash.update(data);
    }
    digest() {
      return Promise.resolve(new Uint8Array(this.hash.digest()));
    }
  }
  const signer = new SignatureV4({ service: 'dynamodb', region: 'eu-west-1', sha256: Sha256 as never, credentials: CREDENTIALS });
  const url = new URL(server.endpoint);
  const signed = await signer.sign(
    { method: request.method, protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: request.path, query: {}, headers, body: request.body },
    { signingDate },
  );
  return String(signed.headers.authorization);
}

describe('a call', () => {
  test('is a POST of the JSON input to / naming the operation in X-Amz-Target, answered with the JSON output', async () => {
    server.answer = () => ({ status: 200, body: { Item: { pk: { S: 'a' } } } });

    await expect(client.send('GetItem', { TableName: 't', Key: { pk: { S: 'a' } } })).resolves.toEqual({ Item: { pk: { S: 'a' } } });

    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/' });
    expect(request?.headers).toMatchObject({ 'x-amz-target': 'DynamoDB_20120810.GetItem', 'content-type': 'application/x-amz-json-1.0' });
    expect(JSON.parse(request?.body ?? '')).toEqual({ TableName: 't', Key: { pk: { S: 'a' } } });
  });

  test('is signed (SigV4) over what the server received: service, region, host, headers and body', async () => {
    await client.send('PutItem', { TableName: 't', Item: { pk: { S: 'ünïcode ✓' } } });

    const [request] = server.requests;
    expect(String(request?.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=\S*host;\S*x-amz-security-token;x-amz-target\S*, Signature=[0-9a-f]{64}$/,
    );
    expect(request?.headers['x-amz-security-token']).toBe(CREDENTIALS.sessionToken);
    // The signer trusts a stated payload hash, so it must be the hash of the body that arrived.
    const statedHash = request?.headers['x-amz-content-sha256'];
    expect(statedHash).toBe(createHash('sha256').update(request?.body ?? '').digest('hex'));
    expect(request?.headers.authorization).toBe(await expectedAuthorization(request!));
  });

  test('an empty 200 answer is an empty output', async () => {
    server.answer = () => ({ status: 200, body: '' });
    await expect(client.send('DeleteItem', {})).resolves.toEqual({});
  });
});

describe('errors', () => {
  test("a service error is an AwsServiceError named by __type's code, with its message, status and other members", async () => {
    server.answer = () => ({
      status: 400,
      body: { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed', Item: { pk: { S: 'a' } } },
    });

    const error = await client.send('UpdateItem', {}).catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(AwsServiceError);
    expect(error).toMatchObject({
      name: 'ConditionalCheckFailedException',
      message: 'The conditional request failed',
      status: 400,
      details: { Item: { pk: { S: 'a' } } },
    });
    expect(server.requests).toHaveLength(1);
  });

  test('Message (capitalised) and the x-amzn-errortype header are read when the body lacks the others', async () => {
    server.answer = () => ({ status: 400, body: { Message: 'no such table' }, headers: { 'x-amzn-errortype': 'ResourceNotFoundException:http://internal.amazon.com/' } });
    await expect(client.send('GetItem', {})).rejects.toMatchObject({ name: 'ResourceNotFoundException', message: 'no such table' });
  });

  test('an answer that is not JSON is named by its status', async () => {
    server.answer = () => ({ status: 403, body: '<html>Forbidden</html>' });
    await expect(client.send('GetItem', {})).rejects.toMatchObject({ name: 'HTTP403', status: 403 });
  });
});

describe('retries', () => {
  const throttle = { status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' } };

  test('a throttled call is sent again, and its later success is the answer', async () => {
    server.answer = () => (server.requests.length === 1 ? throttle : { status: 200, body: { Attributes: {} } });
    await expect(client.send('UpdateItem', { TableName: 't' })).resolves.toEqual({ Attributes: {} });
    expect(server.requests.map((request) => request.body)).toEqual(['{"TableName":"t"}', '{"TableName":"t"}']);
  });

  test("after the service's last attempt (DynamoDB's 4th) the throttling error is raised", async () => {
    server.answer = () => throttle;
    await expect(client.send('UpdateItem', {})).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect(server.requests).toHaveLength(4);
    server.requests.length = 0;
    const sqsLike = new AwsJsonClient({ ...SERVICE, retry: undefined });
    await expect(sqsLike.send('UpdateItem', {})).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    sqsLike.destroy();
    expect(server.requests).toHaveLength(3);
  });

  test('a 5xx answer is retried; a client error is not', async () => {
    server.answer = () => (server.requests.length === 1 ? { status: 503, body: {} } : { status: 200, body: {} });
    await expect(client.send('GetItem', {})).resolves.toEqual({});
    expect(server.requests).toHaveLength(2);

    server.requests.length = 0;
    server.answer = () => ({ status: 400, body: { __type: 'x#ValidationException', message: 'bad' } });
    await expect(client.send('GetItem', {})).rejects.toMatchObject({ name: 'ValidationException' });
    expect(server.requests).toHaveLength(1);
  });
});

test('an interceptor wraps each call: it sees the operation and input, and may change both input and output', async () => {
  server.answer = (request) => ({ status: 200, body: { echoed: JSON.parse(request.body) as unknown } });
  client.intercept(async (operation, input, send) => ({ ...(await send(operation, { ...input, Extra: operation })), intercepted: true }));

  await expect(client.send('GetItem', { TableName: 't' })).resolves.toEqual({ echoed: { TableName: 't', Extra: 'GetItem' }, intercepted: true });

  client.intercept(undefined);
  await expect(client.send('GetItem', { TableName: 't' })).resolves.toEqual({ echoed: { TableName: 't' } });
});

test('without region or credentials in the environment, a call fails saying which is missing', async () => {
  const saved = process.env.AWS_ACCESS_KEY_ID;
  delete process.env.AWS_ACCESS_KEY_ID;
  try {
    await expect(new AwsJsonClient(SERVICE).send('GetItem', {})).rejects.toThrow('AWS_ACCESS_KEY_ID is not set');
  } finally {
    process.env.AWS_ACCESS_KEY_ID = saved;
  }
  expect(server.requests).toHaveLength(0);
});

describe('serviceEndpoint', () => {
  const unset: AwsJsonService = { ...SERVICE, endpointVariable: 'TEST_UNSET_ENDPOINT' };
  test.each([
    ['us-east-1', 'https://dynamodb.us-east-1.amazonaws.com/'],
    ['us-gov-west-1', 'https://dynamodb.us-gov-west-1.amazonaws.com/'],
    ['cn-north-1', 'https://dynamodb.cn-north-1.amazonaws.com.cn/'],
  ])('in %s it is AWS’s regional endpoint', (region, endpoint) => {
    expect(serviceEndpoint(unset, region).href).toBe(endpoint);
  });

  test('the service’s variable, when set, points it elsewhere', () => {
    expect(serviceEndpoint(SERVICE, 'us-east-1').href).toBe(`${server.endpoint}/`);
  });
});
