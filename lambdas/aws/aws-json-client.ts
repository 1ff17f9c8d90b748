import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { DEFAULT_RETRY_SETTINGS, isRetryable, retryDelayMs, type Failure, type RetrySettings } from './retry-policy';

/**
 * Calls to an AWS service that speaks the AWS JSON 1.0 protocol (DynamoDB, SQS), signed with AWS's
 * own SigV4 signer (@smithy/signature-v4) and sent over a keep-alive connection, retried as the
 * SDK retries (lambdas/aws/retry-policy.ts). The functions use this instead of the AWS SDK's
 * clients: the SDK's first call in a fresh process runs its whole middleware, endpoint, serde and
 * credential machinery for the first time, 25-35 ms of a cold start that this client does in a few
 * (see docs/performance.md).
 */

export interface AwsJsonService {
  /** The signing name and endpoint prefix: `dynamodb`, `sqs`. */
  name: string;
  /** Prefixed to the operation in X-Amz-Target: `DynamoDB_20120810`, `AmazonSQS`. */
  targetPrefix: string;
  /** The environment variable that points the client elsewhere (local mode), if set. */
  endpointVariable: string;
  /** The SDK's retry settings for this service, where they differ from its defaults. */
  retry?: RetrySettings;
}

/** An error answer of the service, named by its error code as the SDK names its exceptions. */
export class AwsServiceError extends Error {
  constructor(
    name: string,
    message: string,
    readonly status: number,
    /** The error's other members, in the service's wire format (e.g. DynamoDB's `Item`). */
    readonly details: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = name;
  }
}

export type JsonObject = Record<string, unknown>;

/** An SDK output type without the SDK's response metadata, which this client does not report. */
export type WithoutMetadata<T> = Omit<T, '$metadata'>;

/** Sends one operation (one round trip, whatever the retries) and returns its JSON answer. */
export type SendOperation = (operation: string, input: JsonObject) => Promise<JsonObject>;

/**
 * Wraps every operation a client sends: local mode counts calls and capacity this way, and tests
 * hold one call back to interleave another.
 */
export type OperationInterceptor = (operation: string, input: JsonObject, send: SendOperation) => Promise<JsonObject>;

type SourceData = string | ArrayBuffer | ArrayBufferView;

const bytesOf = (data: SourceData): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

/** The signer's hash, on Node's own crypto. */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** Where the service answers in `region`: the variable's endpoint if set, else AWS's regional one. */
export function serviceEndpoint(service: AwsJsonService, region: string): URL {
  const override = process.env[service.endpointVariable];
  if (override) return new URL(override);
  const domain = region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return new URL(`https://${service.name}.${region}.${domain}`);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface RawAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Connection {
  endpoint: URL;
  signer: SignatureV4;
  agent: HttpAgent | HttpsAgent;
}

/** Region and credentials come from the environment, as Lambda sets them for every function. */
function connect(service: AwsJsonService): Connection {
  const region = requiredEnv('AWS_REGION');
  const endpoint = serviceEndpoint(service, region);
  const sessionToken = process.env.AWS_SESSION_TOKEN;
  const signer = new SignatureV4({
    service: service.name,
    region,
    sha256: NodeSha256,
    credentials: {
      accessKeyId: requiredEnv('AWS_ACCESS_KEY_ID'),
      secretAccessKey: requiredEnv('AWS_SECRET_ACCESS_KEY'),
      ...(sessionToken ? { sessionToken } : {}),
    },
  });
  const agentOptions = { keepAlive: true, maxSockets: 50 };
  return { endpoint, signer, agent: endpoint.protocol === 'http:' ? new HttpAgent(agentOptions) : new HttpsAgent(agentOptions) };
}

export class AwsJsonClient {
  /** Made at the first call, as the SDK's clients resolve their settings: constructing needs none. */
  private connection: Connection | undefined;
  private interceptor: OperationInterceptor | undefined;

  constructor(private readonly service: AwsJsonService) {}

  /** Replaces the interceptor, or removes it when given undefined. */
  intercept(interceptor: OperationInterceptor | undefined): void {
    this.interceptor = interceptor;
  }

  send(operation: string, input: JsonObject): Promise<JsonObject> {
    const send: SendOperation = (name, body) => this.sendWithRetries(name, body);
    return this.interceptor ? this.interceptor(operation, input, send) : send(operation, input);
  }

  /** Stops keeping connections open, so that a process can end. */
  destroy(): void {
    this.connection?.agent.destroy();
    this.connection = undefined;
  }

  private async sendWithRetries(operation: string, input: JsonObject): Promise<JsonObject> {
    const body = JSON.stringify(input);
    for (let attempt = 1; ; attempt++) {
      let failure: Failure;
      let error: Error;
      try {
        const answer = await this.exchange(operation, body);
        if (answer.status === 200) return answer.body === '' ? {} : (JSON.parse(answer.body) as JsonObject);
        error = serviceErrorOf(answer);
        failure = { kind: 'service', code: error.name, status: answer.status };
      } catch (thrown) {
        error = thrown instanceof Error ? thrown : new Error(String(thrown));
        failure = { kind: 'network', code: (thrown as NodeJS.ErrnoException).code };
      }
      const retry = this.service.retry ?? DEFAULT_RETRY_SETTINGS;
      if (attempt >= retry.maxAttempts || !isRetryable(failure)) throw error;
      await sleep(retryDelayMs(failure, attempt, retry));
    }
  }

  private async exchange(operation: string, body: string): Promise<RawAnswer> {
    this.connection ??= connect(this.service);
    const { endpoint, signer, agent } = this.connection;
    const { hostname, port, host, protocol } = endpoint;
    const signed = await signer.sign({
      method: 'POST',
      protocol,
      hostname,
      ...(port ? { port: Number(port) } : {}),
      path: '/',
      query: {},
      headers: {
        host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${this.service.targetPrefix}.${operation}`,
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    });
    const request = protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { hostname, port, method: 'POST', path: '/', headers: signed.headers, agent },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () =>
            resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') }),
          );
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }
}

/**
 * The error in an answer: its code from the body's `__type` (`com.amazonaws.dynamodb.v20120810#Code`)
 * or the x-amzn-errortype header, its message from `message` or `Message`.
 */
function serviceErrorOf(answer: RawAnswer): AwsServiceError {
  let body: JsonObject = {};
  try {
    body = JSON.parse(answer.body) as JsonObject;
  } catch {
    // Not JSON (a proxy's error page): the status names the failure.
  }
  const { __type: type, message, Message, ...details } = body;
  const header = answer.headers['x-amzn-errortype'];
  const code =
    (typeof type === 'string' && type.split('#').pop()) ||
    (typeof header === 'string' && header.split(':')[0]) ||
    `HTTP${answer.status}`;
  const text = typeof message === 'string' ? message : typeof Message === 'string' ? Message : `${code} (HTTP ${answer.status})`;
  return new AwsServiceError(code, text, answer.status, details);
}
