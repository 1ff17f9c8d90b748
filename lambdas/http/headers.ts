import type { APIGatewayProxyEvent } from 'aws-lambda';

/** HTTP header names are case-insensitive; API Gateway passes them as the client sent them. */
export function header(event: Pick<APIGatewayProxyEvent, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** Carried by every response, errors included (contract: "every response carries"). */
export const STANDARD_HEADERS = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;
