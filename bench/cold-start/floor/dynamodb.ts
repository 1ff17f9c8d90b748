import { FLOOR_RESPONSE, firstDynamoDbCall, type FloorEvent } from './calls';

/** The cold-start floor of a function whose only SDK client is DynamoDB's: builds it, makes the first call. */
export async function handler(event: FloorEvent): Promise<typeof FLOOR_RESPONSE> {
  await firstDynamoDbCall(event.dynamodb);
  return FLOOR_RESPONSE;
}
