// The layers of lambdas/ (docs/architecture.md, "Where things live"), from the bottom up:
//   definitions/                    the single source of truth: constants and tables, pure data
//   rules/  webhooks/rules/         pure rules: the sliding window, base64, key and job formats,
//                                   webhook URL checks
//   store/ telemetry/ config/ identity/ webhooks/queue/   adapters: DynamoDB and the AWS SDK's
//                                   settings, Powertools, the settings read from the environment
//                                   (config/), the sign-in tokens' issuer (identity/), SQS
//   use-cases/  webhooks/ webhooks/stream/   what the service does, through the adapters' narrow
//                                   functions (the webhook feature: events, fan-out, signing,
//                                   delivery; the stream records the fan-out reads)
//   http/ routes/ webhooks/handlers/   the route builder and the Lambda handlers
// A layer may import those below it, never those above. A handler calls a store's named
// operation itself where a use-case would only forward it (docs/decisions/code-layout.md), but
// never a raw client or the SDK. test/unit/layers.test.ts runs this
// (`npx depcruise lambdas --config .dependency-cruiser.cjs` shows the same).

const RULES = '^lambdas/(webhooks/)?rules/';
const ADAPTERS = '^lambdas/(store|telemetry|config|identity|webhooks/queue)/';
// The webhook feature's own files (webhooks/*.ts) and its stream records are use-cases.
const USE_CASES = '^lambdas/(use-cases/|webhooks/stream/|webhooks/[^/]+$)';
const HANDLERS = '^lambdas/(http|routes|webhooks/handlers)/';
// What only the adapters themselves use: the SDK clients and their settings.
const RAW_CLIENTS = '^lambdas/(store/(dynamo|sdk-settings|retry-strategy|no-credential-chain)|webhooks/queue/sqs)[.]ts$';

/** Modules matching `from` must not import those matching `to`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'contract-stands-alone',
      'contract/ is what the server, local mode and every client share; it imports nothing of ours outside itself.',
      { path: '^contract/' },
      { path: '^(lambdas|lib|local|bench|scripts|test|client|pages)/' },
    ),
    forbid(
      'clients-know-only-the-contract',
      'The client library, the CLI and the pages import from contract/ and each other, never from the server.',
      { path: '^(client|pages)/' },
      { path: '^(lambdas|lib|local|bench|scripts|test)/' },
    ),
    forbid(
      'definitions-are-data',
      'definitions/ is what everything else imports; it imports nothing of ours outside itself.',
      { path: '^lambdas/definitions/' },
      { path: '^lambdas/', pathNot: '^lambdas/definitions/' },
    ),
    forbid(
      'rules-are-pure',
      'rules/ imports nothing of ours but definitions/: no store, no use-case, no HTTP.',
      { path: RULES },
      { path: '^lambdas/', pathNot: [RULES, '^lambdas/definitions/'] },
    ),
    forbid(
      'rules-do-no-io',
      'rules/ reaches no network, file or AWS SDK; node:crypto (hashing, randomness) is allowed.',
      { path: RULES },
      {
        dependencyTypesNot: ['type-only'],
        path: ['^node_modules/(@aws-sdk|@smithy|@middy|@aws-lambda-powertools)/', '^(node:)?(http|https|net|dns|fs|child_process)$'],
      },
    ),
    forbid(
      'adapters-stay-below-use-cases',
      'A store or adapter never calls back into a use-case or a handler.',
      { path: ADAPTERS },
      { path: [USE_CASES, HANDLERS] },
    ),
    forbid(
      'use-cases-know-no-http',
      'Use-cases answer in their own terms; the handlers turn that into HTTP or batch results.',
      { path: USE_CASES },
      { path: HANDLERS },
    ),
    forbid(
      'handlers-call-named-operations',
      'A handler may call a store or queue operation itself where a use-case would only forward it, ' +
        "but never sends through a raw client: what to send is the adapter's job.",
      { path: HANDLERS },
      { path: RAW_CLIENTS },
    ),
    forbid(
      'aws-sdk-in-adapters-only',
      'AWS stays in the adapters (house rule).',
      { path: '^lambdas/', pathNot: '^lambdas/(store|webhooks/queue)/' },
      { path: '^node_modules/(@aws-sdk|@smithy)/' },
    ),
    forbid(
      'handlers-are-entry-points',
      'Nothing in lambdas/ imports a Lambda handler module.',
      { path: '^lambdas/' },
      { path: '^lambdas/(routes|webhooks/handlers)/' },
    ),
    forbid('no-circular', 'A cycle joins its modules into one layer.', { path: '^lambdas/' }, { circular: true }),
  ],
  options: {
    // `import type` counts: a type from a store in a route is the same coupling.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Middy ships ESM only, under the `import` condition.
    enhancedResolveOptions: { conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
