import * as path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_BASE_PATH, API_FUNCTION_TIMEOUT_MS } from '../lambdas/definitions/limits';
import { type RouteDefinition, type TableAccess, routeEntry } from '../lambdas/definitions/routes';
import { BUNDLING, LAMBDA_ARCHITECTURE, LAMBDA_RUNTIME } from './bundling';

const PROJECT_ROOT = path.resolve(__dirname, '..');

const FUNCTION_MEMORY_MB = 512;
/** Well inside API Gateway's 29 s: Lambda cuts a stuck invocation off, and logs it, before the gateway gives up. */
const FUNCTION_TIMEOUT = Duration.millis(API_FUNCTION_TIMEOUT_MS);
const FUNCTION_LOG_RETENTION = RetentionDays.ONE_MONTH;

export interface RouteFunctionProps {
  readonly route: RouteDefinition;
  /** Every table a route may name in its access list. */
  readonly tables: Readonly<Record<keyof TableAccess, ITable>>;
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * The Lambda function behind one route, with a role that may write to its own log group and do
 * exactly the route's listed DynamoDB actions on exactly the listed tables: nothing else.
 */
export class RouteFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, { route, tables, environment }: RouteFunctionProps) {
    super(scope, id);

    const logGroup = new LogGroup(this, 'Logs', { retention: FUNCTION_LOG_RETENTION });
    // Our own role rather than the default one: that one carries AWSLambdaBasicExecutionRole,
    // which may create and write to any log group in the account.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Route ${route.name}: its log group and its listed DynamoDB actions only`,
    });
    logGroup.grantWrite(role);

    this.function = new NodejsFunction(this, 'Function', {
      description: `${route.method} ${API_BASE_PATH}${route.path}`,
      entry: path.join(PROJECT_ROOT, routeEntry(route)),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: FUNCTION_MEMORY_MB,
      timeout: FUNCTION_TIMEOUT,
      bundling: BUNDLING,
      role,
      logGroup,
      environment: { ...environment },
    });

    for (const tableKey of Object.keys(tables) as (keyof TableAccess)[]) {
      const actions = route.access[tableKey];
      if (actions?.length) {
        this.function.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: [tables[tableKey].tableArn] }));
      }
    }
  }
}
