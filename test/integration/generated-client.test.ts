import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { OPENAPI_PATH } from '#scripts/openapi';
import { testEnv } from '../support/environment';
import { startLocalServer, type LocalServer } from '../support/local-server';

/**
 * docs/openapi.json as a stranger would use it: openapi-typescript generates the types,
 * TypeScript checks a small openapi-fetch client against them, and the client round-trips every
 * route against local mode.
 */

const ROOT = path.resolve(__dirname, '../..');
const FOLDER = path.join(__dirname, 'generated-client');
const TYPES = path.join(FOLDER, 'openapi-types.ts');
const CLIENT = path.join(FOLDER, 'round-trip.ts');

/** TypeScript's messages for `files`, checked as the repository checks its own code. */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `${path.basename(diagnostic.file?.fileName ?? '')}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

/** What round-trip.ts saw per call. Loaded at run time: its types exist only once beforeAll has generated them. */
type Seen = Record<string, { status: number; body?: unknown; error?: unknown; rateLimitRemaining?: string | null }>;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would be resolved before beforeAll generates the file
const loadRoundTrip = (): ((baseUrl: string) => Promise<Seen>) => (require(CLIENT) as { roundTrip: (baseUrl: string) => Promise<Seen> }).roundTrip;

let server: LocalServer;

beforeAll(async () => {
  // The CLI, as a user runs it (its Node API is ESM inside, which Jest's CommonJS loader refuses).
  await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/openapi-typescript'), [OPENAPI_PATH, '--output', TYPES], { cwd: ROOT });
  // Its own server: this client cannot send from a fresh address, and makes keys.
  server = await startLocalServer({
    DYNAMODB_ENDPOINT: testEnv('dynamodbEndpoint'),
    [KEYS_TABLE.envVar]: 'it-generated-client-keys',
    [SECRETS_TABLE.envVar]: 'it-generated-client-secrets',
  });
});

afterAll(async () => {
  await server?.stop();
});

test('the generated types leave out of POST /secrets what the contract makes optional', () => {
  const types = readFileSync(TYPES, 'utf8');
  expect(types).toMatch(/ttl\?: "1h" \| "6h" \| "12h" \| "1d" \| "7d";/);
  expect(types).toMatch(/type\?: "text" \| "file";/);
  expect(types).toMatch(/views\?: number;/);
  expect(types).toMatch(/\bdata: string;/);
});

test('the openapi-fetch client type-checks against the generated types, and a wrong call does not', () => {
  expect(typeErrors([CLIENT])).toEqual([]);

  const wrong = path.join(FOLDER, 'wrong-call.ts');
  writeFileSync(
    wrong,
    "import createClient from 'openapi-fetch';\nimport type { paths } from './openapi-types';\n" +
      "void createClient<paths>({ baseUrl: 'http://localhost' }).POST('/secrets', { body: { views: 2 } });\n",
  );
  try {
    expect(typeErrors([wrong]).join('\n')).toContain("Property 'data' is missing");
  } finally {
    rmSync(wrong);
  }
});

test('the generated client round-trips every route against local mode', async () => {
  const seen = await loadRoundTrip()(server.baseUrl);

  expect(seen.health).toEqual({ status: 200, body: expect.objectContaining({ status: 'healthy', redis: 'connected' }) });
  expect(seen.createdKey).toEqual({ status: 201, body: expect.objectContaining({ key: expect.stringMatching(/^svc_/) }) });
  const { webhookSecret } = seen.createdKey?.body as { webhookSecret: string };
  expect(seen.keyDetails).toEqual({ status: 200, body: expect.objectContaining({ webhookSecret }) });
  expect(seen.updated).toEqual({ status: 200, body: { updated: true } });
  expect(seen.createdSecret?.status).toBe(201);
  expect(seen.claimed).toEqual({
    status: 200,
    body: { data: 'Z2VuZXJhdGVk', type: 'text', filename: null, mimetype: null, remaining: 0 },
    rateLimitRemaining: expect.stringMatching(/^\d+$/),
  });
  expect(seen.claimedAgain).toEqual({ status: 404, error: { error: 'secret not found' } });
  expect(seen.revoked).toEqual({ status: 200, body: { deleted: true } });
  expect(seen.keyRevoked).toEqual({ status: 200, body: { deleted: true } });
  expect(seen.afterRevocation).toEqual({ status: 401, error: { error: 'invalid API key' } });
});
