import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { defineApp } from '#lib/secrets-app';

const REPO_ROOT = path.resolve(__dirname, '../../..');
/** Where test/cdk/global-setup.ts leaves the default synthesis for every file of the run. */
export const SHARED_SYNTHESIS_ENV = 'CDK_TEST_SHARED_SYNTHESIS';
/** The run's directory, made by test/cdk/global-setup.ts and removed by its teardown. */
export const RUN_DIRECTORY_ENV = 'CDK_TEST_RUN_DIRECTORY';

/**
 * A fresh directory for one App's cloud assembly, inside the run's. Without one, an App makes a
 * `cdk.out*` directory in the system's temporary directory and never removes it: the cdk tests
 * left about 85 of them a run, 750 MB in all, and a day of runs filled this machine's disk.
 */
export function assemblyDirectory(): string {
  const runDirectory = process.env[RUN_DIRECTORY_ENV];
  if (!runDirectory) throw new Error(`${RUN_DIRECTORY_ENV} is unset: run the cdk tests through Jest's cdk project`);
  return fs.mkdtempSync(path.join(runDirectory, 'cdk.out-'));
}

/** cdk.json's context (feature flags included), which the CLI passes to `cdk synth` and a bare App lacks. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson: unknown = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8'));
  if (typeof cdkJson !== 'object' || cdkJson === null || !('context' in cdkJson)) return {};
  return cdkJson.context as Record<string, unknown>;
}

export interface Synthesized {
  readonly stackName: string;
  readonly template: Template;
}

/**
 * The app exactly as bin/app.ts defines it (cdk-nag included: an unacknowledged finding makes
 * this throw), with the given extra context, and without bundling the functions. Every resource
 * carries its construct path (`aws:cdk:path`), so that tests can find a construct's logical id
 * in the template alone.
 */
export function synthesize(context: Record<string, unknown> = {}): Synthesized & { readonly app: App } {
  const app = new App({
    outdir: assemblyDirectory(),
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true, ...context },
  });
  const stack = defineApp(app);
  return { app, stackName: stack.stackName, template: Template.fromStack(stack) };
}

/**
 * The app with cdk.json's context alone, synthesized once per run by the cdk project's global
 * setup: a first synthesis in a fresh module registry costs 5–20 s here, and Jest gives every
 * test file a fresh registry.
 */
export function sharedSynthesis(): Synthesized {
  const file = process.env[SHARED_SYNTHESIS_ENV];
  if (!file) throw new Error(`${SHARED_SYNTHESIS_ENV} is unset: run the cdk tests through Jest's cdk project`);
  const { stackName, template } = JSON.parse(fs.readFileSync(file, 'utf8')) as { stackName: string; template: Record<string, unknown> };
  return { stackName, template: Template.fromJSON(template) };
}
