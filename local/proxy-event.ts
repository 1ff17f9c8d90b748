import type { APIGatewayProxyEvent } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID } from './aws-account';

/** The API Gateway REST API (v1) Lambda proxy event, as the stack delivers it to a route function (local mode's and unit tests'). */

export interface ProxyRequest {
  method: string;
  /** Route template, e.g. /api/v1/secrets/{id}. */
  resource: string;
  path: string;
  /** Header values as received, in order, names as sent. */
  headers: Record<string, string[]>;
  query?: URLSearchParams;
  pathParameters?: Record<string, string> | null;
  body: string | null;
  isBase64Encoded?: boolean;
  sourceIp: string;
  requestId: string;
  stage: string;
}

export function proxyEvent(request: ProxyRequest): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(request.headers)) headers[name] = values[values.length - 1] ?? '';
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of request.query ?? []) {
    query[name] = value;
    (multiQuery[name] ??= []).push(value);
  }
  const hasQuery = Object.keys(query).length > 0;
  const userAgent = Object.entries(headers).find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? null;
  return {
    resource: request.resource,
    path: request.path,
    httpMethod: request.method,
    headers,
    multiValueHeaders: request.headers,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: request.pathParameters ?? null,
    stageVariables: null,
    body: request.body,
    isBase64Encoded: request.isBase64Encoded ?? false,
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: request.method,
      path: `/${request.stage}${request.path}`,
      stage: request.stage,
      requestId: request.requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: request.resource,
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
        sourceIp: request.sourceIp,
        user: null,
        userAgent,
        userArn: null,
      },
    },
  };
}
