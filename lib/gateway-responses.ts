import { ResponseType, type RestApiBase } from 'aws-cdk-lib/aws-apigateway';
import { ERRORS } from '#contract/errors';

/**
 * What API Gateway answers by itself, before or instead of a function, reshaped into the contract's
 * error response: `{"error": "..."}` with the headers every response carries.
 */

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
  // A REST API answers an unknown path, or a method a path lacks, with 403 "Missing
  // Authentication Token"; the contract wants 404. No method uses IAM or an authorizer, so this
  // type means nothing else here.
  {
    id: 'RouteNotFound',
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    body: fixedMessageBody(ERRORS.routeNotFound),
  },
  // On a path it cannot route, the gateway reads an Authorization header as an AWS signature, and
  // a Bearer API key fails that check. No method is IAM-authorized, so a signature is never checked
  // on a real route: this too can only be an unknown route.
  {
    id: 'RouteNotFoundWithCredentials',
    type: ResponseType.INVALID_SIGNATURE,
    statusCode: '404',
    body: fixedMessageBody(ERRORS.routeNotFound),
  },
  // Bodies over the REST API's 10 MB ceiling. AWS's guide says customizing this response is not
  // supported at present, and such bodies are reported to get the gateway's own plain-text 413;
  // declared so that the contract's shape applies wherever the gateway does honour it.
  {
    id: 'PayloadTooLarge',
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    body: fixedMessageBody(ERRORS.payloadTooLarge),
  },
  // Stage throttling, shared by all clients; the per-key limit is the handlers' (with its own text).
  // Its token bucket refills every second.
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
