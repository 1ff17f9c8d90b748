import { API_BASE_PATH } from './limits';

/** The API's routes as a caller sees them; lambdas/definitions/routes.ts adds what each function may do. */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteContract {
  /** Function name suffix and handler file name under lambdas/routes/. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path below /api/v1, with API Gateway's {param} syntax. */
  readonly path: string;
  readonly idempotent?: boolean;
}

/** Keeps each row a RouteContract while remembering the names, so that code can name a route safely. */
const routeTable = <const Name extends string>(
  routes: readonly (RouteContract & { readonly name: Name })[],
): readonly (RouteContract & { readonly name: Name })[] => routes;

export const ROUTES = routeTable([
  { name: 'health', method: 'GET', path: '/health' },
  { name: 'keys-create', method: 'POST', path: '/keys' },
  { name: 'keys-get', method: 'GET', path: '/keys' },
  { name: 'keys-update', method: 'PATCH', path: '/keys' },
  { name: 'keys-webhook-test', method: 'POST', path: '/keys/webhook/test' },
  { name: 'keys-delete', method: 'DELETE', path: '/keys' },
  { name: 'secrets-create', method: 'POST', path: '/secrets', idempotent: true },
  { name: 'secrets-claim', method: 'GET', path: '/secrets/{id}', idempotent: true },
  { name: 'secrets-revoke', method: 'DELETE', path: '/secrets/{id}', idempotent: true },
  { name: 'secrets-status', method: 'GET', path: '/secrets/{id}/status' },
  // Secret requests (docs/api.md): the requester registers a public key, any key fulfils once.
  { name: 'requests-create', method: 'POST', path: '/requests', idempotent: true },
  { name: 'requests-get', method: 'GET', path: '/requests/{id}' },
  { name: 'requests-fulfil', method: 'POST', path: '/requests/{id}', idempotent: true },
  { name: 'requests-status', method: 'GET', path: '/requests/{id}/status' },
]);

export type RouteName = (typeof ROUTES)[number]['name'];

/** The route's template as API Gateway names it (`GET /api/v1/secrets/{id}`): what logs and metrics say, never a path. */
export const routeTemplate = (route: Pick<RouteContract, 'method' | 'path'>): string => `${route.method} ${API_BASE_PATH}${route.path}`;
