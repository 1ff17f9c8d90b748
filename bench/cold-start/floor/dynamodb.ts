import { FLOOR_RESPONSE, floorDynamoDbCalls, type FloorEvent } from './calls';

/** The cold-start floor of a function whose only SDK client is DynamoDB's: builds it, makes the function's calls. */
export async function handler(event: FloorEvent): Promise<typeof FLOOR_RESPONSE> {
  await floorDynamoDbCalls(event.dynamodb);
  return FLOOR_RESPONSE;
}
