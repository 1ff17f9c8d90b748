// The layers of lambdas/ (docs/architecture.md, "Where things live"), from the bottom up:
//   definitions/  the single source of truth: constants and tables, pure data
//   rules/        pure rules: the sliding window, base64, key and job formats, webhook URL checks
//   aws/ store/ queue/ telemetry/ config/ identity/   adapters: the AWS SDK, DynamoDB, SQS,
//                                           Powertools, the settings read from the environment
//                                           (config/), the sign-in tokens' issuer (identity/)
//   use-cases/ webhooks/ stream/    what the service does, through the adapters' narrow functions
//   http/ routes/ consumers/        the route builder and the Lambda handlers
// A layer may import those below it, never those above. test/unit/layers.test.ts runs this
// (`npx depcruise lambdas --config .dependency-cruiser.cjs` shows the same).

const ADAPTERS = '^lambdas/(aws|store|queue|telemetry|config|identity)/';
const USE_CASES = '^lambdas/(use-cases|webhooks|stream)/';
const HANDLERS = '^lambdas/(http|routes|consumers)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
      from: { path: '^lambdas/rules/' },
      to: { path: '^lambdas/', pathNot: '^lambdas/(rules|definitions)/' },
    },
    {
      name: 'rules-do-no-io',
      comment: 'rules/ reaches no network, file or AWS SDK; node:crypto (hashing, randomness) is allowed.',
      severity: 'error',
      from: { path: '^lambdas/rules/' },
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
      name: 'routes-go-through-use-cases',
      comment: 'The route builder and the route handlers reach DynamoDB and SQS only through use-cases/.',
      severity: 'error',
      from: { path: '^lambdas/(http|routes)/' },
      to: { path: '^lambdas/(store|queue|aws)/' },
    },
    {
      name: 'aws-sdk-in-adapters-only',
      comment: 'AWS stays in the adapters (house rule).',
      severity: 'error',
      from: { path: '^lambdas/', pathNot: '^lambdas/(aws|store|queue)/' },
      to: { path: '^node_modules/(@aws-sdk|@smithy)/' },
    },
    {
      name: 'handlers-are-entry-points',
      comment: 'Nothing in lambdas/ imports a Lambda handler module.',
      severity: 'error',
      from: { path: '^lambdas/' },
      to: { path: '^lambdas/(routes|consumers)/' },
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
