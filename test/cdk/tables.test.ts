import { TABLES } from '../../lambdas/definitions/tables';
import { synthesize } from './support/synth';
import { resource, resourcesOfType, tableLogicalId } from './support/template';

const { stack, template } = synthesize();

describe('tables', () => {
  it('are exactly the defined ones', () => {
    expect(resourcesOfType(template, 'AWS::DynamoDB::Table')).toHaveLength(TABLES.length);
  });

  it.each(TABLES.map((table) => [table.id, table] as const))('%s is built from its definition', (_, table) => {
    const built = resource(template, tableLogicalId(stack, table));
    const keySchema = [
      { AttributeName: table.partitionKey, KeyType: 'HASH' },
      ...(table.sortKey ? [{ AttributeName: table.sortKey, KeyType: 'RANGE' }] : []),
    ];
    expect(built.Properties).toEqual({
      KeySchema: keySchema,
      AttributeDefinitions: keySchema.map(({ AttributeName }) => ({ AttributeName, AttributeType: 'S' })),
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      // Enabled without a key of ours: the AWS managed KMS key (aws/dynamodb).
      SSESpecification: { SSEEnabled: true },
      ...(table.stream ? { StreamSpecification: { StreamViewType: table.stream } } : {}),
    });
  });

  it.each(TABLES.map((table) => [table.id, table] as const))('%s outlives the stack', (_, table) => {
    expect(resource(template, tableLogicalId(stack, table))).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('streams the secrets table with both images, as its definition says', () => {
    expect(TABLES.filter((table) => table.stream).map((table) => [table.id, table.stream])).toEqual([['Secrets', 'NEW_AND_OLD_IMAGES']]);
  });
});
