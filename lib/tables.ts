import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { TableDefinition } from '#lambdas/definitions/tables';

/** A DynamoDB table exactly as its shared definition describes it; local mode builds the same one. */
export function tableFromDefinition(scope: Construct, definition: TableDefinition, { pointInTimeRecovery }: { pointInTimeRecovery: boolean }): Table {
  return new Table(scope, definition.id, {
    partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
    ...(definition.sortKey ? { sortKey: { name: definition.sortKey, type: AttributeType.STRING } } : {}),
    billingMode: BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: definition.ttlAttribute,
    ...(definition.stream ? { stream: StreamViewType[definition.stream] } : {}),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: pointInTimeRecovery },
    encryption: TableEncryption.AWS_MANAGED,
    // Deleting the stack must never delete live keys and unclaimed secrets with it.
    removalPolicy: RemovalPolicy.RETAIN,
  });
}
