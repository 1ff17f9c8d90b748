import { KEYS_TABLE, SECRETS_TABLE, TABLES } from '#lambdas/definitions/tables';
import { sharedSynthesis, synthesize } from './support/synth';
import { resource, resourcesOfType, tableLogicalId } from './support/template';

const { template } = sharedSynthesis();

describe('tables', () => {
  it('are exactly the defined ones', () => {
    expect(resourcesOfType(template, 'AWS::DynamoDB::Table')).toHaveLength(TABLES.length);
  });

  it.each(TABLES.map((table) => [table.id, table] as const))('%s is built from its definition', (_, table) => {
    const built = resource(template, tableLogicalId(template, table));
    const keySchema = [
      { AttributeName: table.partitionKey, KeyType: 'HASH' },
      ...(table.sortKey ? [{ AttributeName: table.sortKey, KeyType: 'RANGE' }] : []),
    ];
    expect(built.Properties).toEqual({
      KeySchema: keySchema,
      AttributeDefinitions: keySchema.map(({ AttributeName }) => ({ AttributeName, AttributeType: 'S' })),
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
      // Only the keys table: the secrets table's would keep consumed secrets restorable for 35 days.
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: table === KEYS_TABLE },
      // Enabled without a key of ours: the AWS managed KMS key (aws/dynamodb).
      SSESpecification: { SSEEnabled: true },
      ...(table.stream ? { StreamSpecification: { StreamViewType: table.stream } } : {}),
    });
  });

  it.each(TABLES.map((table) => [table.id, table] as const))('%s outlives the stack', (_, table) => {
    expect(resource(template, tableLogicalId(template, table))).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('the context value secretsPointInTimeRecovery turns the secrets table’s recovery on, as a boolean or a string', () => {
    for (const given of [true, 'true']) {
      const synthesized = synthesize({ secretsPointInTimeRecovery: given });
      expect(resource(synthesized.template, tableLogicalId(synthesized.template, SECRETS_TABLE)).Properties).toMatchObject({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      });
    }
    expect(() => synthesize({ secretsPointInTimeRecovery: 'yes' })).toThrow('secretsPointInTimeRecovery must be true or false');
  });

  it('streams the secrets table with both images, as its definition says', () => {
    expect(TABLES.filter((table) => table.stream).map((table) => [table.id, table.stream])).toEqual([['Secrets', 'NEW_AND_OLD_IMAGES']]);
  });
});
