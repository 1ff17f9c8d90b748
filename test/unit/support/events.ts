import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

export interface EventOptions {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | null;
  pathParameters?: Record<string, string> | null;
  requestId?: string;
  sourceIp?: string;
  isBase64Encoded?: boolean;
}

let counter = 0;

/** An API Gateway REST (v1) proxy event as the gateway hands it to the function. */
export function apiEvent(options: EventOptions): APIGatewayProxyEvent {
  counter += 1;
  const requestId = options.requestId ?? `req-${counter}-${Math.random().toString(36).slice(2)}`;
  return {
    httpMethod: options.method,
    path: `/api/v1${options.path}`,
    resource: options.path,
    headers: options.headers ?? {},
    multiValueHeaders: {},
    body: options.body ?? null,
    isBase64Encoded: options.isBase64Encoded ?? false,
    pathParameters: options.pathParameters ?? null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: {
      accountId: '123456789012',
      apiId: 'unitapi',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: options.method,
      path: `/prod/api/v1${options.path}`,
      stage: 'prod',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'res',
      resourcePath: options.path,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: options.sourceIp ?? '203.0.113.7',
        user: null,
        userAgent: 'unit-test',
        userArn: null,
      },
    },
  };
}

export const jsonHeaders = (extra: Record<string, string> = {}): Record<string, string> => ({
  'Content-Type': 'application/json',
  ...extra,
});

export const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });

/** A minimal Lambda context; middy reads getRemainingTimeInMillis for its early-timeout guard. */
export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'unit',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:unit',
    memoryLimitInMB: '256',
    awsRequestId: 'lambda-request',
    logGroupName: '/aws/lambda/unit',
    logStreamName: 'stream',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export interface InvokeResult {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
  rawBody: string;
}

type RouteHandler<C> = (event: APIGatewayProxyEvent, context: C) => Promise<APIGatewayProxyResult>;

/** Invokes a route handler as Lambda would and parses its JSON body. */
export async function invoke<C>(handler: RouteHandler<C>, event: APIGatewayProxyEvent): Promise<InvokeResult> {
  const result = await handler(event, lambdaContext() as C);
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
  return { statusCode: result.statusCode, headers, body: JSON.parse(result.body) as unknown, rawBody: result.body };
}
