import { createECDH, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { API_BASE_PATH, KEY_LIFETIME_MS, SECRET_DEFAULTS, SECRET_ID_BYTES, SECRET_TTLS } from '#contract/limits';
import type { RouteDefinition } from '#lambdas/definitions/routes';
import { generateApiKey, generateWebhookSecret, hashApiKey } from '#lambdas/rules/api-keys';
import { randomUrlSafeId } from '#lambdas/rules/random';
import { putKey } from '#lambdas/store/key-store';
import { putRequest } from '#lambdas/store/request-store';
import { putSecret } from '#lambdas/store/secret-store';
import { proxyEvent } from '#local/proxy-event';
import { dataFilling } from '#test/support/api';

/** Keys, secrets and requests written straight to the tables, fresh for every request; and a route's API Gateway event. */

export interface FreshKey {
  key: string;
  keyHash: string;
}

/** Data that makes a 1 KB body: the cost model's typical secret. */
export const SECRET_DATA = dataFilling(1024);
/** A requester's P-256 public key as POST /requests takes it: the uncompressed point, base64url. */
export const REQUEST_PUBLIC_KEY = createECDH('prime256v1').generateKeys().toString('base64url');
const LIFETIME = SECRET_TTLS[SECRET_DEFAULTS.ttl];

export async function freshKey(webhook?: string): Promise<FreshKey> {
  const [key, created] = [generateApiKey(), Date.now()];
  const keyHash = hashApiKey(key);
  await putKey({ keyHash, created, expires: created + KEY_LIFETIME_MS, webhookSecret: generateWebhookSecret(), ...(webhook ? { webhook } : {}) });
  return { key, keyHash };
}

/** A live 1 KB secret owned by `owner`, with POST /secrets' defaults; its id. */
export async function freshSecret(owner: FreshKey): Promise<string> {
  const [id, created] = [randomUrlSafeId(SECRET_ID_BYTES), Date.now()];
  const { type, views } = SECRET_DEFAULTS;
  await putSecret({ id, owner: owner.keyHash, data: SECRET_DATA, type, views, created, expires: created + LIFETIME });
  return id;
}

/** An open secret request of `owner`, with POST /requests' default ttl; its id. */
export async function freshRequest(owner: FreshKey): Promise<string> {
  const [id, created] = [randomUrlSafeId(SECRET_ID_BYTES), Date.now()];
  await putRequest({ id, owner: owner.keyHash, publicKey: REQUEST_PUBLIC_KEY, created, expires: created + LIFETIME, lifetime: LIFETIME });
  return id;
}

export interface RouteRequest {
  headers?: Record<string, string>;
  body?: string;
  pathParameters?: Record<string, string>;
  sourceIp?: string;
}

/** An API Gateway proxy event for `route`, as local mode builds it, with its {param} placeholders filled from pathParameters. */
export function routeEvent(route: RouteDefinition, request: RouteRequest): APIGatewayProxyEvent {
  const resource = `${API_BASE_PATH}${route.path}`;
  return proxyEvent({
    method: route.method,
    resource,
    path: resource.replace(/\{(\w+)\}/g, (_, name: string) => request.pathParameters?.[name] ?? ''),
    headers: Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, [value]])),
    pathParameters: request.pathParameters ?? null,
    body: request.body ?? null,
    sourceIp: request.sourceIp ?? '198.18.0.1',
    requestId: randomUUID(),
    stage: 'prod',
  });
}
