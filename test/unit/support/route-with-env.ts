import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

/**
 * Loads a route's handler as a function deployed with an environment of its own: `env` on top of
 * ./env's, for this copy of the module only. The route modules read their settings once, when they
 * load (readFunctionSettings, lambdas/config/environment.ts), so a test that needs another SITE_URL or
 * KEYS_PER_IP_PER_HOUR needs a fresh copy of the route and of our modules under it.
 *
 * The AWS SDK packages are shared with the test, not loaded afresh: the copy then sends through
 * the same DynamoDBDocumentClient class that mockDocumentClient() (./dynamo) mocks, and the
 * errors it builds (conditionFailed) are the classes the stores test for. The environment applies
 * again around each call, for what the stores read at call time (table names).
 *
 *   import '../support/env';
 *   const ddb = mockDocumentClient();
 *   const secretsCreate = loadRoute('secrets-create', { SITE_URL: 'https://other.example/' });
 *   await invoke(secretsCreate, apiEvent({ ... }));
 */

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type RouteModule = 'health' | 'keys-create' | 'keys-delete' | 'keys-get' | 'keys-update' | 'secrets-claim' | 'secrets-create' | 'secrets-revoke';
type Env = Record<string, string | undefined>;

const SHARED_PACKAGES = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb', '@aws-sdk/client-sqs'];

function withEnv<T>(env: Env, run: () => T): T {
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const apply = (values: Env) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(env);
  const restore = () => apply(before);
  try {
    const result = run();
    if (result instanceof Promise) return result.finally(restore) as T;
    restore();
    return result;
  } catch (error) {
    restore();
    throw error;
  }
}

export function loadRoute(route: RouteModule, env: Env): Handler {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the registry's own copies, handed to the isolated one below
  const shared = Object.fromEntries(SHARED_PACKAGES.map((name) => [name, require(name) as unknown]));
  let handler: Handler | undefined;
  withEnv(env, () =>
    jest.isolateModules(() => {
      for (const [name, module] of Object.entries(shared)) jest.doMock(name, () => module);
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- isolateModules loads through require alone
        handler = (require(`../../../lambdas/routes/${route}`) as { handler: Handler }).handler;
      } finally {
        for (const name of SHARED_PACKAGES) jest.dontMock(name);
      }
    }),
  );
  const loaded = handler;
  if (!loaded) throw new Error(`lambdas/routes/${route} has no handler`);
  return (event, context) => withEnv(env, () => loaded(event, context));
}
