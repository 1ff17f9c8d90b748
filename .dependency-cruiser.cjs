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

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'contract-stands-alone',
      comment: 'contract/ is what the server, local mode and every client share; it imports nothing of ours outside itself.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(lambdas|lib|local|bench|scripts|test|client|pages)/' },
    },
    {
      name: 'clients-know-only-the-contract',
      comment: 'The client library, the CLI and the pages import from contract/ and each other, never from the server.',
      severity: 'error',
      from: { path: '^(client|pages)/' },
      to: { path: '^(lambdas|lib|local|bench|scripts|test)/' },
    },
    {
      name: 'definitions-are-data',
      comment: 'definitions/ is what everything else imports; it imports nothing of ours outside itself.',
      severity: 'error',
      from: { path: '^lambdas/definitions/' },
      to: { path: '^lambdas/', pathNot: '^lambdas/definitions/' },
    },
    {
      name: 'rules-are-pure',
      comment: 'rules/ imports nothing of ours but definitions/: no store, no use-case, no HTTP.',
      severity: 'error',
      from: { path: RULES },
      to: { path: '^lambdas/', pathNot: [RULES, '^lambdas/definitions/'] },
    },
    {
      name: 'rules-do-no-io',
      comment: 'rules/ reaches no network, file or AWS SDK; node:crypto (hashing, randomness) is allowed.',
      severity: 'error',
      from: { path: RULES },
      to: {
        dependencyTypesNot: ['type-only'],
        path: ['^node_modules/(@aws-sdk|@smithy|@middy|@aws-lambda-powertools)/', '^(node:)?(http|https|net|dns|fs|child_process)$'],
      },
    },
    {
      name: 'adapters-stay-below-use-cases',
      comment: 'A store or adapter never calls back into a use-case or a handler.',
      severity: 'error',
      from: { path: ADAPTERS },
      to: { path: [USE_CASES, HANDLERS] },
    },
    {
      name: 'use-cases-know-no-http',
      comment: 'Use-cases answer in their own terms; the handlers turn that into HTTP or batch results.',
      severity: 'error',
      from: { path: USE_CASES },
      to: { path: HANDLERS },
    },
    {
      name: 'handlers-call-named-operations',
      comment:
        'A handler may call a store or queue operation itself where a use-case would only forward it, ' +
        "but never sends through a raw client: what to send is the adapter's job.",
      severity: 'error',
      from: { path: HANDLERS },
      to: { path: RAW_CLIENTS },
    },
    {
      name: 'aws-sdk-in-adapters-only',
      comment: 'AWS stays in the adapters (house rule).',
      severity: 'error',
      from: { path: '^lambdas/', pathNot: '^lambdas/(store|webhooks/queue)/' },
      to: { path: '^node_modules/(@aws-sdk|@smithy)/' },
    },
    {
      name: 'handlers-are-entry-points',
      comment: 'Nothing in lambdas/ imports a Lambda handler module.',
      severity: 'error',
      from: { path: '^lambdas/' },
      to: { path: '^lambdas/(routes|webhooks/handlers)/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle joins its modules into one layer.',
      severity: 'error',
      from: { path: '^lambdas/' },
      to: { circular: true },
    },
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
