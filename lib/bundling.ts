import * as path from 'node:path';
import type { BuildOptions, Format } from 'esbuild';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * How every function of the service is built and run. The stack passes BUNDLING to NodejsFunction; scripts
 * that need the same artefact outside CDK (a cold-start benchmark, a bundle smoke test) call
 * esbuildOptionsFor, which is derived from BUNDLING so the two cannot drift apart.
 */

export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;
export const LAMBDA_ARCHITECTURE = Architecture.ARM_64;

/** CDK names the bundle index.mjs for ESM output; the handler is `index.handler`. */
export const BUNDLE_FILE_NAME = 'index.mjs';

/** esbuild's target for the runtime: nodejs24.x → node24. */
const esbuildTarget = (runtime: Runtime): string => {
  const match = /^nodejs(\d+)\.x$/.exec(runtime.name);
  if (!match) throw new Error(`not a versioned Node.js runtime: ${runtime.name}`);
  return `node${match[1]}`;
};

/**
 * ESM output has no `require`. A CommonJS dependency bundled into it that requires a Node built-in
 * goes through esbuild's `__require`, which throws "Dynamic require of ... is not supported" unless
 * a real `require` is in scope. Today's handlers need none (mainFields picks the SDK's ESM builds);
 * this keeps the next CommonJS dependency from failing only at run time. The alias avoids clashing
 * with a createRequire import of the bundle's own.
 */
const REQUIRE_SHIM =
  "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);";

/**
 * Packages replaced in every bundle, by a module of ours. The SDK's clients all import the default
 * credential provider chain (@aws-sdk/credential-provider-node, with the SSO and STS clients it
 * uses), a third of a function's bundle, which the functions never call: their clients take their
 * credentials from the environment (lambdas/store/sdk-settings.ts). Measured in
 * docs/decisions/sdk-cold-start.md. The path is relative to the project root, where CDK runs
 * esbuild (locally: esbuild is a devDependency, so CDK never falls back to its Docker build).
 */
const ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './lambdas/store/no-credential-chain.ts',
  // Node's HTTP module without its ESM namespace, which loads undici: lambdas/http/node-http.ts.
  'node:http': './lambdas/http/node-http.ts',
};

const PROJECT_ROOT = path.resolve(__dirname, '..');

/** The options both builds share, all required so that esbuildOptionsFor can read every one. */
type SharedBundlingOptions = Required<
  Pick<BundlingOptions, 'format' | 'target' | 'minify' | 'mainFields' | 'externalModules' | 'banner' | 'sourceMap' | 'esbuildArgs'>
>;

export const BUNDLING: SharedBundlingOptions = {
  format: OutputFormat.ESM,
  target: esbuildTarget(LAMBDA_RUNTIME),
  minify: true,
  // Prefer packages' ESM builds: they tree-shake far better than their CommonJS ones.
  mainFields: ['module', 'main'],
  // Bundle the AWS SDK too: the version we test is the version we run, whatever the runtime ships,
  // and a tree-shaken client is usually quicker to load at cold start than the runtime's full copy.
  externalModules: [],
  banner: REQUIRE_SHIM,
  // Lambda ignores source maps unless NODE_OPTIONS=--enable-source-maps, which slows cold starts and
  // every stack trace; without that flag a map would only enlarge the asset.
  sourceMap: false,
  esbuildArgs: { '--alias': Object.entries(ALIASES).map(([name, replacement]) => `${name}=${replacement}`) },
};

const ESBUILD_FORMAT: Record<OutputFormat, Format> = { [OutputFormat.ESM]: 'esm', [OutputFormat.CJS]: 'cjs' };

/** The esbuild build that NodejsFunction runs for `entry`, writing outdir/index.mjs. */
export function esbuildOptionsFor(entry: string, outdir: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile: path.join(outdir, BUNDLE_FILE_NAME),
    bundle: true,
    platform: 'node',
    format: ESBUILD_FORMAT[BUNDLING.format],
    target: BUNDLING.target,
    minify: BUNDLING.minify,
    mainFields: [...BUNDLING.mainFields],
    external: [...BUNDLING.externalModules],
    banner: { js: BUNDLING.banner },
    sourcemap: BUNDLING.sourceMap,
    alias: Object.fromEntries(Object.entries(ALIASES).map(([name, replacement]) => [name, path.resolve(PROJECT_ROOT, replacement)])),
  };
}
