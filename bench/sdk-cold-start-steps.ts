import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import { buildBundle, type BuiltBundle } from './cold-start/bundles';
import type { ColdStartSample } from './cold-start/sample';
import { startBenchEnvironment } from './environment';
import { median } from './stats';

/**
 * The figures of docs/decisions/sdk-cold-start.md: each function built as the stack used to build
 * it and then with each of AWS's cold-start measures added in turn, every variant timed like the
 * bench times a function (bench/cold-start.ts), the variants' samples interleaved.
 * `npx tsx bench/sdk-cold-start-steps.ts` prints the record's table: per
 * function and variant, the bundle's size and the medians of the child's CPU time and of the
 * elapsed time from spawn to response.
 */

const ROUNDS = 8;
const REPO_ROOT = path.resolve(__dirname, '..');
const SDK_SETTINGS = path.join(REPO_ROOT, 'lambdas/aws/sdk-settings.ts');
const CREDENTIALS_SETTING = /^\s*credentials: fromEnv\(\),\n/m;

/** sdk-settings.ts as it was before `credentials: fromEnv()`: the SDK's default provider chain. */
const defaultCredentialChain: Plugin = {
  name: 'default-credential-chain',
  setup(build) {
    build.onLoad({ filter: /lambdas\/aws\/sdk-settings\.ts$/ }, () => {
      const source = fs.readFileSync(SDK_SETTINGS, 'utf8');
      if (!CREDENTIALS_SETTING.test(source)) throw new Error(`${SDK_SETTINGS} no longer sets credentials: fromEnv()`);
      return { contents: source.replace(CREDENTIALS_SETTING, ''), loader: 'ts' };
    });
  },
};

/** The function with the SQS client built too, as a module shared by all functions would build it. */
const everyClient =
  (entry: string) =>
  (options: BuildOptions): BuildOptions => ({
    ...options,
    entryPoints: undefined,
    stdin: {
      contents: `import './lambdas/queue/sqs';\nexport { handler } from './${entry}';\n`,
      resolveDir: REPO_ROOT,
      sourcefile: 'every-client.ts',
      loader: 'ts',
    },
  });

interface Variant {
  step: string;
  adjust(entry: string): (options: BuildOptions) => BuildOptions;
}

/** Each variant adds one measure to the one before it; the last is lib/bundling.ts as it stands. */
const VARIANTS: readonly Variant[] = [
  {
    step: "CommonJS, unminified (NodejsFunction's defaults), every client, default credential chain",
    adjust: (entry) => (options) => ({
      ...everyClient(entry)(options),
      format: 'cjs',
      outfile: path.join(path.dirname(options.outfile ?? ''), 'index.js'),
      mainFields: ['main', 'module'],
      minify: false,
      banner: {},
      alias: {},
      plugins: [defaultCredentialChain],
    }),
  },
  {
    step: "ESM, preferring packages' ESM builds",
    adjust: (entry) => (options) => ({ ...everyClient(entry)(options), minify: false, alias: {}, plugins: [defaultCredentialChain] }),
  },
  { step: 'minified', adjust: (entry) => (options) => ({ ...everyClient(entry)(options), alias: {}, plugins: [defaultCredentialChain] }) },
  { step: 'only the clients the function uses', adjust: () => (options) => ({ ...options, alias: {}, plugins: [defaultCredentialChain] }) },
  { step: 'credentials: fromEnv()', adjust: () => (options) => ({ ...options, alias: {} }) },
  { step: 'no credential provider chain in the bundle (esbuild alias)', adjust: () => (options) => options },
];

async function main(): Promise<void> {
  const environment = await startBenchEnvironment();
  try {
    // Only now: the fixtures' store builds its DynamoDB client from the endpoint the environment set (see main.ts).
    const { startColdStartBench, sampleFunction } = await import('./cold-start');
    const bench = await startColdStartBench(environment);
    try {
      const rows: string[] = [];
      for (const [targetIndex, target] of bench.targets.entries()) {
        const bundles: BuiltBundle[] = [];
        for (const [index, variant] of VARIANTS.entries()) {
          bundles.push(await buildBundle(target.entry, path.join(bench.outRoot, `${targetIndex}-${index}`), variant.adjust(target.entry)));
        }
        const samples: ColdStartSample[][] = VARIANTS.map(() => []);
        // Untimed: each bundle's first start reads it into the page cache.
        for (const bundle of bundles) await sampleFunction(bench, target, bundle);
        for (let round = 0; round < ROUNDS; round++) {
          for (let turn = 0; turn < bundles.length; turn++) {
            const index = (turn + round) % bundles.length;
            samples[index]?.push(await sampleFunction(bench, target, bundles[index] as BuiltBundle));
          }
        }
        const cells = bundles.map((bundle, index) => {
          const of = (figure: (sample: ColdStartSample) => number): string => median((samples[index] ?? []).map(figure)).toFixed(0);
          return `${bundle.kb.toFixed(0)} KB, ${of((sample) => sample.cpuMs)} / ${of((sample) => sample.totalMs)} ms`;
        });
        rows.push(`| ${target.name} | ${cells.join(' | ')} |`);
        console.error(rows.at(-1));
      }
      console.log(VARIANTS.map((variant, index) => `${index + 1}. ${variant.step}`).join('\n'));
      console.log(`\n| function | ${VARIANTS.map((_, index) => String(index + 1)).join(' | ')} |`);
      console.log(`| --- |${VARIANTS.map(() => ' ---: |').join('')}`);
      console.log(rows.join('\n'));
    } finally {
      await bench.stop();
    }
  } finally {
    await environment.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
