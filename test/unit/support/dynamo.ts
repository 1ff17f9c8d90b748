import { marshall } from '@aws-sdk/util-dynamodb';
import { AwsServiceError } from '../../../lambdas/aws/aws-json-client';
import { DocumentClient } from '../../../lambdas/store/document-client';
import { mockCommandClient, type CommandMock } from './command-mock';

/** Mocks DocumentClient.prototype.send, which covers the store's lazily created client. */
export const mockDocumentClient = (): CommandMock => mockCommandClient(DocumentClient);
export type DocumentClientMock = CommandMock;

/**
 * A ConditionalCheckFailedException as our client raises it. With ReturnValuesOnConditionCheckFailure
 * ALL_OLD, DynamoDB returns the old item in the error body, in wire format ({pk: {S: '...'}}); the
 * client keeps it so (see test/unit/store/sdk-wire-format.test.ts).
 */
export function conditionFailed(oldItem?: object): AwsServiceError {
  return new AwsServiceError(
    'ConditionalCheckFailedException',
    'The conditional request failed',
    400,
    oldItem ? { Item: marshall(oldItem as Record<string, unknown>, { removeUndefinedValues: true }) } : {},
  );
}

/** What the client raises once its retries of a throttled call are spent. */
export const throttled = (): AwsServiceError =>
  new AwsServiceError(
    'ProvisionedThroughputExceededException',
    'The level of configured provisioned throughput for the table was exceeded',
    400,
    {},
  );

/** The inputs of every command sent, in order, with the command's class name. */
export function sentCommands(mock: DocumentClientMock): { name: string; input: Record<string, unknown> }[] {
  return mock.calls().map((call) => {
    const command = call.args[0] as { constructor: { name: string }; input: Record<string, unknown> };
    return { name: command.constructor.name, input: command.input };
  });
}
