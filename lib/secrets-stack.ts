import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ENV } from '../lambdas/definitions/env';
import { API_BASE_PATH } from '../lambdas/definitions/limits';
import { ROUTES } from '../lambdas/definitions/routes';
import { KEYS_TABLE, SECRETS_TABLE } from '../lambdas/definitions/tables';
import { SecretsApi } from './api';
import type { SecretsStackConfig } from './config';
import { acknowledgeNagFindings } from './nag-suppressions';
import { RouteFunction } from './route-functions';
import { tableFromDefinition } from './tables';

export interface SecretsStackProps extends StackProps {
  readonly config: SecretsStackConfig;
}

/** The whole service: two tables, one function per route, and the REST API in front of them. */
export class SecretsStack extends Stack {
  constructor(scope: Construct, id: string, { config, ...stackProps }: SecretsStackProps) {
    super(scope, id, stackProps);

    const tables = {
      keys: tableFromDefinition(this, KEYS_TABLE),
      secrets: tableFromDefinition(this, SECRETS_TABLE),
    };
    const api = new SecretsApi(this, 'Api', { throttle: config.throttle });

    const environment = {
      [KEYS_TABLE.envVar]: tables.keys.tableName,
      [SECRETS_TABLE.envVar]: tables.secrets.tableName,
      [ENV.siteUrl]: config.siteUrl ?? api.urlForPathWithoutStageReference(`${API_BASE_PATH}${secretLinkBasePath()}`),
      [ENV.keysPerIpPerHour]: String(config.keysPerIpPerHour),
    };
    const routeFunctions = ROUTES.map((route) => {
      const { function: handler } = new RouteFunction(this, `${pascalCase(route.name)}Route`, { route, tables, environment });
      api.addRoute(route, handler);
      return handler;
    });

    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the API, {base_url} in the spec', value: api.baseUrl });

    acknowledgeNagFindings(api.restApi, routeFunctions);
  }
}

const CLAIM_ROUTE_NAME = 'secrets-claim';
const ID_SEGMENT = '/{id}';

/** Without a site of its own, a secret's link is its claim route: `<claim path>/<id>`. */
function secretLinkBasePath(): string {
  const claim = ROUTES.find((route) => route.name === CLAIM_ROUTE_NAME);
  if (!claim?.path.endsWith(ID_SEGMENT)) {
    throw new Error(`route table has no ${CLAIM_ROUTE_NAME} route ending in ${ID_SEGMENT}`);
  }
  return claim.path.slice(0, -ID_SEGMENT.length);
}

const pascalCase = (name: string): string =>
  name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
