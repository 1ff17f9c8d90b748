const os = require('node:os');

// @middy/* ships ESM only, exported under the `import` condition alone: map it to its entry files
// and transpile them like our own sources so Jest's CommonJS loader can use them. `jose` (sign-in
// tokens) ships ESM only too, mapped to its web API build. `mime` (the client's filename helpers)
// and `oauth4webapi` (the CLI's sign-in, which the MCP server's tests load) ship ESM only too, and
// are transpiled the same way. Lambda's invoke store (local mode's per-invocation scopes) loads
// node:async_hooks with import(), which Jest's loader refuses in CommonJS; transpiled, it becomes a
// require.
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.[tj]s$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|mime|@aws/lambda-invoke-store|jose|oauth4webapi)/)'],
  moduleNameMapper: { '^@middy/([^/]+)$': '<rootDir>/node_modules/@middy/$1/index.js', '^jose$': '<rootDir>/node_modules/jose/dist/webapi/index.js' },
};

/**
 * One worker per core and one more: most test files spend their time waiting on other processes
 * (DynamoDB Local, local mode, Chromium, webhook retries), which the extra worker overlaps. On
 * this 2-core machine, Jest's default (cores - 1: one worker, so in band) ran the suite in 367 s;
 * three workers in 243 s (docs/testing.md).
 */
const WORKERS = os.availableParallelism() + 1;

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: WORKERS,
  // Files that start a local-mode server of their own wait for its DynamoDB Local in beforeAll.
  testTimeout: 120_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      // Keeps what the functions print (JSON log and metric lines) for the tests to read.
      setupFilesAfterEnv: ['<rootDir>/test/unit/support/printed.ts'],
    },
    {
      ...shared,
      displayName: 'cdk',
      testMatch: ['<rootDir>/test/cdk/**/*.test.ts'],
      // The default app, synthesized once for every file of the run (test/cdk/support/synth.ts).
      globalSetup: '<rootDir>/test/cdk/global-setup.ts',
      globalTeardown: '<rootDir>/test/cdk/global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      // One local-mode server on DynamoDB Local for the whole run, as `npm start` runs it.
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
    },
    // The pages in Chromium, each file against a local-mode server of its own (its links must name it).
    { ...shared, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.test.ts'] },
  ],
};
