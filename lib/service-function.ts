import * as path from 'node:path';
import { type Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import { ENV } from '#lambdas/definitions/env';
import type { TableAccess } from '#lambdas/definitions/access';
import { BUNDLING, LAMBDA_ARCHITECTURE, LAMBDA_RUNTIME } from './bundling';
import { tableGrantStatement } from './table-grants';

const PROJECT_ROOT = path.resolve(__dirname, '..');

const FUNCTION_LOG_RETENTION = RetentionDays.ONE_MONTH;

/** The `service` every function logs and counts under: the stack's name, so that two stages count apart. */
export const functionsServiceName = (scope: IConstruct): string => Stack.of(scope).stackName;

export interface ServiceFunctionProps {
  /** Handler module exporting `handler`, relative to the repository root. */
  readonly entry: string;
  readonly description: string;
  /** Shown on the role, to say what it may do. */
  readonly roleDescription: string;
  readonly memorySizeMb: number;
  readonly timeout: Duration;
  readonly environment: Readonly<Record<string, string>>;
  /** Every table the access list may name. */
  readonly tables: Readonly<Record<keyof TableAccess, ITable>>;
  readonly access: TableAccess;
}

/** One of the service's functions, its role allowed its own log group and exactly the listed table access. */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    const logGroup = new LogGroup(this, 'Logs', { retention: FUNCTION_LOG_RETENTION });
    // Not the default role: AWSLambdaBasicExecutionRole may write to any log group in the account.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.roleDescription,
    });
    logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      description: props.description,
      entry: path.join(PROJECT_ROOT, props.entry),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: props.memorySizeMb,
      timeout: props.timeout,
      bundling: BUNDLING,
      role: this.role,
      logGroup,
      environment: { ...props.environment, [ENV.serviceName]: functionsServiceName(this) },
    });

    for (const tableKey of Object.keys(props.tables) as (keyof TableAccess)[]) {
      for (const grant of props.access[tableKey] ?? []) {
        this.function.addToRolePolicy(tableGrantStatement(grant, props.tables[tableKey].tableArn));
      }
    }
  }
}
