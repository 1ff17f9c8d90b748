import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readStackConfig } from './config';
import { SecretsStack } from './secrets-stack';

/** The app as `cdk synth` builds it, tests included; cdk-nag fails synthesis on an unacknowledged error. */
export function defineApp(app: App): SecretsStack {
  const config = readStackConfig(app.node);
  // The stack's id is its name (context stackName), so that two stages can share an account and region.
  const stack = new SecretsStack(app, config.stackName, { config });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return stack;
}
