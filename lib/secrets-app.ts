import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readStackConfig } from './config';
import { SecretsStack } from './secrets-stack';

const STACK_NAME = 'OneTimeSecrets';

/**
 * The app as `cdk synth` builds it, tests included. cdk-nag 3 is a policy-validation plugin: an
 * unacknowledged error fails synthesis, and every finding lands in the assembly's validation report.
 */
export function defineApp(app: App): SecretsStack {
  const stack = new SecretsStack(app, STACK_NAME, { config: readStackConfig(app.node) });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return stack;
}
