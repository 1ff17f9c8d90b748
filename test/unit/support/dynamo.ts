import { ConditionalCheckFailedException, DynamoDBServiceException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

/** Mocks DynamoDBDocumentClient.prototype.send, which covers the store's lazily created client. */
export const mockDocumentClient = () => mockClient(DynamoDBDocumentClient);
export type DocumentClientMock = ReturnType<typeof mockDocumentClient>;

/**
 * A ConditionalCheckFailedException as the SDK raises it. With ReturnValuesOnConditionCheckFailure
 * ALL_OLD, DynamoDB returns the old item in the error body, and the DocumentClient does NOT
 * unmarshall it (its unmarshalling middleware only touches successful outputs; see
 * test/unit/store/sdk-wire-format.test.ts): `Item` is in wire format, {pk: {S: '...'}}.
 */
export function conditionFailed(oldItem?: object): ConditionalCheckFailedException {
  return new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: { httpStatusCode: 400 },
    ...(oldItem ? { Item: marshall(oldItem as Record<string, unknown>, { removeUndefinedValues: true }) } : {}),
  });
}

export const throttled = (): ProvisionedThroughputExceededException =>
  new ProvisionedThroughputExceededException({
    message: 'The level of configured provisioned throughput for the table was exceeded',
    $metadata: { httpStatusCode: 400 },
  });

/** The inputs of every command sent, in order, with the command's class name. */
export function sentCommands(mock: DocumentClientMock): { name: string; input: Record<string, unknown> }[] {
  return mock.calls().map((call) => {
    const command = call.args[0] as { constructor: { name: string }; input: Record<string, unknown> };
    return { name: command.constructor.name, input: command.input };
  });
}

/** An error DynamoDB answers for a malformed request: a bug of ours, not the store failing. */
export const invalidRequest = (): DynamoDBServiceException =>
  new DynamoDBServiceException({
    name: 'ValidationException',
    $fault: 'client',
    message: 'One or more parameter values were invalid',
    $metadata: { httpStatusCode: 400 },
  });

/** A condition as it reads with its placeholders resolved: `owner = "owner-hash"`. */
export const resolvedCondition = (input: Record<string, unknown>): string => {
  const names = input.ExpressionAttributeNames as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  return String(input.ConditionExpression)
    .replace(/:\w+/g, (value) => JSON.stringify(values[value]))
    .replace(/#\w+/g, (name) => names[name] ?? name);
};
