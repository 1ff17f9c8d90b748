import * as path from 'node:path';
import type { BuildOptions, Format } from 'esbuild';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/** How every function is built: BUNDLING for NodejsFunction, esbuildOptionsFor (derived from it) for scripts. */

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

/** ESM has no `require`: a bundled CommonJS dependency requiring a built-in would fail at run time without it. */
const REQUIRE_SHIM =
  "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);";

/** Packages replaced in every bundle: the SDK's default credential chain, never called (docs/decisions/sdk-cold-start.md). */
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
  // Bundle the AWS SDK too: the version we test is the version we run.
  externalModules: [],
  banner: REQUIRE_SHIM,
  // Lambda ignores source maps without --enable-source-maps, which slows cold starts.
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
