import { ROUTES, type TableAccess } from '../../lambdas/definitions/routes';
import { KEYS_TABLE, SECRETS_TABLE, type TableDefinition } from '../../lambdas/definitions/tables';
import { actionsByResource, roleOf } from './support/iam';
import { sharedSynthesis } from './support/synth';
import { asArray, at, refTarget, resource, roleStatements, routeFunctionId, tableLogicalId } from './support/template';

const { template } = sharedSynthesis();

const TABLE_OF_ACCESS_KEY: Record<keyof TableAccess, TableDefinition> = { keys: KEYS_TABLE, secrets: SECRETS_TABLE };

const tableArn = (table: TableDefinition): string => JSON.stringify({ 'Fn::GetAtt': [tableLogicalId(template, table), 'Arn'] });

describe.each(ROUTES.map((route) => [route.name, route] as const))('the %s function’s role', (_, route) => {
  const functionId = routeFunctionId(template, route);
  const roleId = roleOf(template, functionId);

  it('may do exactly the route’s listed actions on each table it lists, and nothing on the others', () => {
    const granted = actionsByResource(template, roleId);
    for (const [accessKey, table] of Object.entries(TABLE_OF_ACCESS_KEY) as [keyof TableAccess, TableDefinition][]) {
      expect({ table: table.id, actions: [...(granted.get(tableArn(table)) ?? [])].sort() }).toEqual({
        table: table.id,
        actions: [...(route.access[accessKey] ?? [])].sort(),
      });
    }
  });

  it('names each table it uses in one statement', () => {
    for (const table of Object.values(TABLE_OF_ACCESS_KEY)) {
      const statements = roleStatements(template, roleId).filter((statement) =>
        asArray(statement.Resource).some((target) => JSON.stringify(target) === tableArn(table)),
      );
      expect(statements.length).toBeLessThanOrEqual(1);
    }
  });

  it('otherwise may only write to its own log group', () => {
    const logGroupId = refTarget(at(resource(template, functionId).Properties, 'LoggingConfig', 'LogGroup'));
    const ownLogGroup = JSON.stringify({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
    const tables = new Set(Object.values(TABLE_OF_ACCESS_KEY).map(tableArn));
    const others = [...actionsByResource(template, roleId)].filter(([target]) => !tables.has(target));
    expect(others).toEqual([[ownLogGroup, new Set(['logs:CreateLogStream', 'logs:PutLogEvents'])]]);
  });

  it('carries no managed policy and is assumable by Lambda only', () => {
    const role = resource(template, roleId);
    expect(at(role.Properties, 'ManagedPolicyArns')).toBeUndefined();
    expect(at(role.Properties, 'AssumeRolePolicyDocument', 'Statement')).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
    ]);
  });
});
