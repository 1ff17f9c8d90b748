import { request } from 'node:http';
import { ERRORS } from '#contract/errors';
import { testEnv } from '../support/environment';

/**
 * Paths sent exactly as written, dot segments and all: WHATWG URL parsing (fetch, `new URL`) would
 * resolve them before sending, so these go out through node:http, which sends the path it is given.
 * Anything under the API's prefix answers the contract's JSON, never the pages' plain text.
 */

interface RawResponse {
  status: number;
  contentType: string | undefined;
  body: string;
}

function sendRaw(method: string, rawPath: string): Promise<RawResponse> {
  const site = new URL(testEnv('baseUrl'));
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: site.hostname, port: site.port, method, path: rawPath }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, contentType: incoming.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test.each([
  ['GET', '/api/v1/../../etc/passwd'],
  ['GET', '/api/v1/%2e%2e/%2e%2e/etc/passwd'],
  ['GET', '/api/v1/..%2f..%2fetc/passwd'],
  ['GET', '/api/v1/secrets/../keys'],
  ['POST', '/api/v1/../../'],
  ['GET', '/api/../index.html'],
])('%s %s (sent as is) answers 404 with the JSON error body', async (method, rawPath) => {
  const response = await sendRaw(method, rawPath);
  expect(response.status).toBe(404);
  expect(response.contentType).toMatch(/^application\/json/);
  expect(JSON.parse(response.body)).toEqual({ error: ERRORS.routeNotFound });
});

test('a path that only normalizes into the API answers JSON too, and the pages stay pages', async () => {
  const intoApi = await sendRaw('GET', '/pages/../api/v1/no-such-route');
  expect(intoApi.contentType).toMatch(/^application\/json/);
  expect(JSON.parse(intoApi.body)).toEqual({ error: ERRORS.routeNotFound });
  const page = await sendRaw('GET', '/');
  expect(page.status).toBe(200);
  expect(page.contentType).toMatch(/^text\/html/);
});
