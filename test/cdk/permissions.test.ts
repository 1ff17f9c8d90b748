import { Match } from 'aws-cdk-lib/assertions';
import { ROUTES, type RouteName } from '#lambdas/definitions/routes';
import { KEYS_TABLE, SECRETS_TABLE, type TableDefinition } from '#lambdas/definitions/tables';
import { QUEUES } from '#lambdas/definitions/webhooks';
import { roleOf } from './support/iam';
import { sharedSynthesis } from './support/synth';
import { asArray, at, refTarget, resource, roleStatements, routeFunctionId, tableLogicalId, type PolicyStatement } from './support/template';
import { pipelineOf, queueLogicalId } from './support/webhooks';

/**
 * The roles as the template writes them. Which actions each function needs is proven by what it
 * really sends, in the integration run (test/integration/support/least-privilege.ts); here, the
 * conditions that limit its writes, spelled out literally, and the shape of every role.
 */

const { template } = sharedSynthesis();
const TABLES: readonly TableDefinition[] = [KEYS_TABLE, SECRETS_TABLE];
const tableArn = (table: TableDefinition) => ({ 'Fn::GetAtt': [tableLogicalId(template, table), 'Arn'] });
const routeRole = (name: RouteName): string => {
  const route = ROUTES.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`no route ${name}`);
  return roleOf(template, routeFunctionId(template, route));
};
const { fanOutId, deliveryId } = pipelineOf(template);

/** The statements of a role that name a table, as CloudFormation will read them. */
const tableStatements = (roleId: string, table: TableDefinition): PolicyStatement[] =>
  roleStatements(template, roleId).filter((statement) =>
    asArray(statement.Resource).some((target) => JSON.stringify(target) === JSON.stringify(tableArn(table))),
  );

/** The role's policy holds this statement. */
const expectStatement = (roleId: string, statement: Record<string, unknown>): void =>
  template.hasResourceProperties('AWS::IAM::Policy', {
    Roles: [{ Ref: roleId }],
    PolicyDocument: { Statement: Match.arrayWith([Match.objectEquals({ Effect: 'Allow', ...statement })]) },
  });

const AUTHENTICATED = ROUTES.filter((route) => route.name !== 'health' && route.name !== 'keys-create').map((route) => route.name);

describe('the writes each role may send, by condition', () => {
  const IDEMPOTENT = ROUTES.filter((route) => route.idempotent).map((route) => route.name);
  const STORING: RouteName[] = ['secrets-create', 'requests-fulfil'];
  it.each(AUTHENTICATED.filter((name) => !STORING.includes(name)))(
    '%s may count a request in its key’s rate-limit slots, naming only pk, rl and counted, reading the key back',
    (name) => {
      expectStatement(routeRole(name), {
        Action: 'dynamodb:UpdateItem',
        Resource: tableArn(KEYS_TABLE),
        Condition: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'rl', 'counted'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['ALL_NEW'] },
        },
      });
    },
  );

  it.each(STORING)('%s may also count its bytes in the count, naming only pk, rl, counted and sb', (name) => {
    expectStatement(routeRole(name), {
      Action: 'dynamodb:UpdateItem',
      Resource: tableArn(KEYS_TABLE),
      Condition: {
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'rl', 'counted', 'sb'] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['ALL_NEW'] },
      },
    });
  });

  it.each(IDEMPOTENT)('%s may record an Idempotency-Key in an item of its own, naming only pk, ttl and idem, reading nothing back', (name) => {
    expectStatement(routeRole(name), {
      Action: 'dynamodb:UpdateItem',
      Resource: tableArn(KEYS_TABLE),
      Condition: {
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'ttl', 'idem'] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
      },
    });
  });

  it('keys-update alone may set a key’s webhook, naming only pk and webhook, reading nothing back', () => {
    expectStatement(routeRole('keys-update'), {
      Action: 'dynamodb:UpdateItem',
      Resource: tableArn(KEYS_TABLE),
      Condition: {
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'webhook'] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
      },
    });
    const mayUpdateWebhook = ROUTES.filter((route) =>
      tableStatements(routeRole(route.name), KEYS_TABLE).some(
        (statement) => asArray(statement.Action).includes('dynamodb:UpdateItem') && JSON.stringify(statement).includes('"webhook"'),
      ),
    ).map((route) => route.name);
    expect(mayUpdateWebhook).toEqual(['keys-update']);
  });

  it('no role may name a key’s expiry in an update: none can extend a key', () => {
    for (const roleId of [...ROUTES.map((route) => routeRole(route.name)), roleOf(template, fanOutId), roleOf(template, deliveryId)]) {
      const updates = tableStatements(roleId, KEYS_TABLE).filter((statement) => asArray(statement.Action).includes('dynamodb:UpdateItem'));
      for (const statement of updates) expect(JSON.stringify(statement)).not.toContain('"expires"');
    }
  });

  it('keys-create logs attempts per address and writes new keys, reading back no key it would replace', () => {
    expectStatement(routeRole('keys-create'), {
      Action: 'dynamodb:UpdateItem',
      Resource: tableArn(KEYS_TABLE),
      Condition: {
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'log', 'ttl', 'logged'] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['ALL_NEW', 'NONE'] },
      },
    });
    expectStatement(routeRole('keys-create'), {
      Action: 'dynamodb:PutItem',
      Resource: tableArn(KEYS_TABLE),
      Condition: {
        'ForAllValues:StringEquals': {
          'dynamodb:Attributes': ['pk', 'created', 'expires', 'ttl', 'webhookSecret', 'webhook', 'rl', 'sb', 'access', 'subject'],
        },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
      },
    });
  });

  it("secrets-claim takes views by the view attributes (and reads an answer's reader) and its own claim:<token> ones, and deletes nothing", () => {
    expectStatement(routeRole('secrets-claim'), {
      Action: 'dynamodb:UpdateItem',
      Resource: tableArn(SECRETS_TABLE),
      Condition: {
        'ForAllValues:StringLike': {
          'dynamodb:Attributes': ['pk', 'sk', 'remaining', 'expires', 'gate', 'viewedAt', 'viewed', 'readers', 'reader', 'claim:*'],
        },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['ALL_NEW', 'NONE'] },
      },
    });
    // Wrong passphrase proofs: counted, and the last burns the secret; never the data, gate or owner.
    expectStatement(routeRole('secrets-claim'), {
      Action: 'dynamodb:UpdateItem',
      Resource: tableArn(SECRETS_TABLE),
      Condition: {
        'ForAllValues:StringLike': {
          'dynamodb:Attributes': ['pk', 'sk', 'attempts', 'remaining', 'expires', 'burnedAt', 'readers', 'attempt:*'],
        },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['UPDATED_NEW', 'NONE'] },
      },
    });
    const actions = tableStatements(routeRole('secrets-claim'), SECRETS_TABLE).flatMap((statement) => asArray(statement.Action));
    expect(actions).not.toContain('dynamodb:DeleteItem');
    expect(actions).not.toContain('dynamodb:BatchWriteItem');
  });

  it("requests-fulfil may not name owner or reader: an answer stays its requester's", () => {
    const updates = tableStatements(routeRole('requests-fulfil'), SECRETS_TABLE).filter((statement) =>
      asArray(statement.Action).includes('dynamodb:UpdateItem'),
    );
    expect(updates).toHaveLength(1);
    const attributes = JSON.stringify(updates[0]);
    expect(attributes).toContain('"requestState"');
    expect(attributes).not.toMatch(/"owner"|"reader"/);
  });

  it('secrets-create writes heads by the head’s attributes, reading back no secret it would replace', () => {
    expectStatement(routeRole('secrets-create'), {
      Action: 'dynamodb:PutItem',
      Resource: tableArn(SECRETS_TABLE),
      Condition: {
        'ForAllValues:StringEquals': {
          'dynamodb:Attributes': [
            'pk',
            'sk',
            'owner',
            'type',
            'filename',
            'mimetype',
            'views',
            'remaining',
            'created',
            'expires',
            'ttl',
            'data',
            'chunks',
            'createToken',
            'gate',
            'attempts',
            'undoneAt',
            'repeatAnsweredAt',
          ],
        },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
      },
    });
  });

  it('secrets-create updates a head only to mark it answered by a keyed repeat, reading nothing back', () => {
    expectStatement(routeRole('secrets-create'), {
      Action: 'dynamodb:UpdateItem',
      Resource: tableArn(SECRETS_TABLE),
      Condition: {
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'repeatAnsweredAt', 'undoneAt'] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
      },
    });
  });

  it('secrets-status reads heads and receipts by the receipt’s attributes only: never data, filename, mimetype or gate', () => {
    const receiptAttributes = ['pk', 'sk', 'owner', 'state', 'views', 'remaining', 'created', 'expires', 'viewed', 'burnedAt', 'requestState'];
    expectStatement(routeRole('secrets-status'), {
      Action: 'dynamodb:BatchGetItem',
      Resource: tableArn(SECRETS_TABLE),
      Condition: {
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': receiptAttributes },
        StringEqualsIfExists: { 'dynamodb:Select': ['SPECIFIC_ATTRIBUTES'] },
      },
    });
    const actions = tableStatements(routeRole('secrets-status'), SECRETS_TABLE).flatMap((statement) => asArray(statement.Action));
    expect(actions).toEqual(['dynamodb:BatchGetItem']);
  });

  it('every UpdateItem and PutItem of every role is limited by attributes that include the table’s key', () => {
    for (const roleId of [...ROUTES.map((route) => routeRole(route.name)), roleOf(template, fanOutId), roleOf(template, deliveryId)]) {
      for (const table of TABLES) {
        const writes = tableStatements(roleId, table).filter((statement) =>
          asArray(statement.Action).some((action) => action === 'dynamodb:UpdateItem' || action === 'dynamodb:PutItem'),
        );
        for (const statement of writes) {
          const condition = (statement as { Condition?: unknown }).Condition;
          const attributes =
            at(condition, 'ForAllValues:StringEquals', 'dynamodb:Attributes') ?? at(condition, 'ForAllValues:StringLike', 'dynamodb:Attributes');
          const keyAttributes = [table.partitionKey, ...(table.sortKey ? [table.sortKey] : [])];
          expect({ table: table.id, attributes }).toEqual({ table: table.id, attributes: expect.arrayContaining(keyAttributes) });
          expect(at(condition, 'StringEqualsIfExists', 'dynamodb:ReturnValues')).toBeDefined();
        }
      }
    }
  });
});

describe.each(ROUTES.map((route) => [route.name, route] as const))('the %s function’s role', (_, route) => {
  const functionId = routeFunctionId(template, route);
  const roleId = roleOf(template, functionId);

  it('names only the tables, its own log group and, if it sends webhook jobs, their queue', () => {
    const logGroupId = refTarget(at(resource(template, functionId).Properties, 'LoggingConfig', 'LogGroup'));
    const allowed = new Set([
      ...TABLES.map((table) => JSON.stringify(tableArn(table))),
      JSON.stringify({ 'Fn::GetAtt': [logGroupId, 'Arn'] }),
      ...(route.sendsWebhookJobs ? [JSON.stringify({ 'Fn::GetAtt': [queueLogicalId(template, QUEUES.jobs), 'Arn'] })] : []),
    ]);
    const targets = roleStatements(template, roleId).flatMap((statement) => asArray(statement.Resource).map((target) => JSON.stringify(target)));
    expect(targets.filter((target) => !allowed.has(target))).toEqual([]);
  });

  it('may only write to its own log group besides', () => {
    const logGroupId = refTarget(at(resource(template, functionId).Properties, 'LoggingConfig', 'LogGroup'));
    expectStatement(roleId, { Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] } });
  });

  it('carries no managed policy and is assumable by Lambda only', () => {
    const role = resource(template, roleId);
    expect(at(role.Properties, 'ManagedPolicyArns')).toBeUndefined();
    expect(at(role.Properties, 'AssumeRolePolicyDocument', 'Statement')).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
    ]);
  });
});
