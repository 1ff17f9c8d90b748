import createClient from 'openapi-fetch';
// Generated from docs/openapi.json by openapi-typescript, next to this file, by
// test/integration/generated-client.test.ts (not committed: tsconfig.json leaves this file out).
import type { paths } from './openapi-types';

/**
 * A client built only from docs/openapi.json: openapi-typescript's types and openapi-fetch. It
 * round-trips every route and returns what it saw, for the test to judge. Every call here must
 * type-check against the generated types: POST /secrets is sent with `data` alone, as the
 * contract allows (ttl, type and views have defaults).
 */

type SecretCreation = paths['/secrets']['post']['requestBody']['content']['application/json'];
const minimalSecret: SecretCreation = { data: 'Z2VuZXJhdGVk' };

export async function roundTrip(baseUrl: string) {
  const api = createClient<paths>({ baseUrl });

  const health = await api.GET('/health');
  const created = await api.POST('/keys', { body: {} });
  if (!created.data) throw new Error(`POST /keys: ${created.response.status} ${JSON.stringify(created.error)}`);
  const headers = { Authorization: `Bearer ${created.data.key}` };

  const details = await api.GET('/keys', { headers });
  const updated = await api.PATCH('/keys', { headers, body: { webhook: '' } });
  const secret = await api.POST('/secrets', { headers, body: minimalSecret });
  if (!secret.data) throw new Error(`POST /secrets: ${secret.response.status} ${JSON.stringify(secret.error)}`);
  const id = secret.data.id;
  const claimed = await api.GET('/secrets/{id}', { headers, params: { path: { id } } });
  const claimedAgain = await api.GET('/secrets/{id}', { headers, params: { path: { id } } });

  const other = await api.POST('/secrets', { headers, body: { data: 'b3RoZXI=', ttl: '1h', views: 2, type: 'text' } });
  if (!other.data) throw new Error(`POST /secrets: ${other.response.status}`);
  const revoked = await api.DELETE('/secrets/{id}', { headers, params: { path: { id: other.data.id } } });
  const keyRevoked = await api.DELETE('/keys', { headers });
  const afterRevocation = await api.GET('/keys', { headers });

  return {
    health: { status: health.response.status, body: health.data },
    createdKey: { status: created.response.status, body: created.data },
    keyDetails: { status: details.response.status, body: details.data },
    updated: { status: updated.response.status, body: updated.data },
    createdSecret: { status: secret.response.status, body: secret.data },
    claimed: { status: claimed.response.status, body: claimed.data, rateLimitRemaining: claimed.response.headers.get('x-ratelimit-remaining') },
    claimedAgain: { status: claimedAgain.response.status, error: claimedAgain.error },
    revoked: { status: revoked.response.status, body: revoked.data },
    keyRevoked: { status: keyRevoked.response.status, body: keyRevoked.data },
    afterRevocation: { status: afterRevocation.response.status, error: afterRevocation.error },
  };
}
