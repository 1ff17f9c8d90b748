import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { API_BASE_PATH, API_FUNCTION_TIMEOUT_MS } from '#contract/limits';
import type { TableAccess } from '#lambdas/definitions/access';
import { type RouteDefinition, routeEntry } from '#lambdas/definitions/routes';
import { ServiceFunction } from './service-function';

const ROUTE_MEMORY_MB = 512;
/** Well inside API Gateway's 29 s: Lambda cuts a stuck invocation off, and logs it, before the gateway gives up. */
const ROUTE_TIMEOUT = Duration.millis(API_FUNCTION_TIMEOUT_MS);

export interface RouteFunctionProps {
  readonly route: RouteDefinition;
  /** Every table a route may name in its access list. */
  readonly tables: Readonly<Record<keyof TableAccess, ITable>>;
  readonly environment: Readonly<Record<string, string>>;
}

/** The Lambda function behind one route, allowed exactly the route's listed DynamoDB actions. */
export function routeFunction(scope: Construct, id: string, { route, tables, environment }: RouteFunctionProps): ServiceFunction {
  return new ServiceFunction(scope, id, {
    entry: routeEntry(route),
    description: `${route.method} ${API_BASE_PATH}${route.path}`,
    roleDescription: `Route ${route.name}: its log group and its listed DynamoDB actions only`,
    memorySizeMb: ROUTE_MEMORY_MB,
    timeout: ROUTE_TIMEOUT,
    environment,
    tables,
    access: route.access,
  });
}
