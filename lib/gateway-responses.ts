import { ResponseType, type RestApiBase } from 'aws-cdk-lib/aws-apigateway';
import { ERRORS } from '#contract/errors';

/** What API Gateway answers by itself, reshaped into the contract's `{"error": "..."}` with its headers. */

/** Header values are mapping expressions: quoted ones are literals, `context.*` reads the request. */
const GATEWAY_RESPONSE_HEADERS = {
  'content-type': "'application/json'",
  'cache-control': "'no-store'",
  'x-content-type-options': "'nosniff'",
  // The id handlers answer with too (requestContext.requestId), and the access log's requestId.
  'x-request-id': 'context.requestId',
} as const;

/** The gateway's own message, already a quoted JSON string. */
const GATEWAY_MESSAGE_BODY = '{"error":$context.error.messageString}';

const fixedMessageBody = (message: string): string => {
  // The body is a Velocity template: `$` or `#` in a message would be evaluated, not printed.
  if (/[$#]/.test(message)) throw new Error(`message cannot go into a mapping template verbatim: ${message}`);
  return JSON.stringify({ error: message });
};

interface GatewayResponseSpec {
  readonly id: string;
  readonly type: ResponseType;
  /** Absent: the response type's own status. */
  readonly statusCode?: string;
  readonly body: string;
  readonly extraHeaders?: Readonly<Record<string, string>>;
}

const GATEWAY_RESPONSES: readonly GatewayResponseSpec[] = [
  // An unknown path or method gets 403 "Missing Authentication Token"; no method uses IAM, so it means only that.
  {
    id: 'RouteNotFound',
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    body: fixedMessageBody(ERRORS.routeNotFound),
  },
  // An unknown route with a Bearer key fails as an AWS signature; no method is IAM-authorized.
  {
    id: 'RouteNotFoundWithCredentials',
    type: ResponseType.INVALID_SIGNATURE,
    statusCode: '404',
    body: fixedMessageBody(ERRORS.routeNotFound),
  },
  // Bodies over the REST API's 10 MB ceiling; AWS may not honour this customization, declared in case it does.
  {
    id: 'PayloadTooLarge',
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    body: fixedMessageBody(ERRORS.payloadTooLarge),
  },
  // Stage throttling, shared by all clients; the per-key limit is the handlers' (with its own text).
  {
    id: 'Throttled',
    type: ResponseType.THROTTLED,
    statusCode: '429',
    body: GATEWAY_MESSAGE_BODY,
    extraHeaders: { 'retry-after': "'1'" },
  },
  // A request the web ACL's managed rules blocked (lib/waf.ts); its rate rules answer 429 themselves.
  {
    id: 'BlockedByWaf',
    type: ResponseType.WAF_FILTERED,
    statusCode: '403',
    body: fixedMessageBody(ERRORS.requestBlocked),
  },
  // Everything else keeps its own status and message, in the contract's shape.
  { id: 'Default4xx', type: ResponseType.DEFAULT_4XX, body: GATEWAY_MESSAGE_BODY },
  { id: 'Default5xx', type: ResponseType.DEFAULT_5XX, body: GATEWAY_MESSAGE_BODY },
];

export function addGatewayResponses(api: RestApiBase): void {
  for (const { id, type, statusCode, body, extraHeaders } of GATEWAY_RESPONSES) {
    api.addGatewayResponse(id, {
      type,
      ...(statusCode ? { statusCode } : {}),
      responseHeaders: { ...GATEWAY_RESPONSE_HEADERS, ...extraHeaders },
      templates: { 'application/json': body },
    });
  }
}
