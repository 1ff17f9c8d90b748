import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { defineApp } from '../../../lib/secrets-app';
import type { SecretsStack } from '../../../lib/secrets-stack';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/** cdk.json's context (feature flags included), which the CLI passes to `cdk synth` and a bare App lacks. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson: unknown = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8'));
  if (typeof cdkJson !== 'object' || cdkJson === null || !('context' in cdkJson)) return {};
  return cdkJson.context as Record<string, unknown>;
}

export interface Synthesized {
  readonly app: App;
  readonly stack: SecretsStack;
  readonly template: Template;
}

/**
 * The app exactly as bin/app.ts defines it (cdk-nag included: an unacknowledged finding makes
 * this throw), with the given extra context, and without bundling the functions.
 */
export function synthesize(context: Record<string, unknown> = {}): Synthesized {
  const app = new App({
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context },
  });
  const stack = defineApp(app);
  return { app, stack, template: Template.fromStack(stack) };
}
