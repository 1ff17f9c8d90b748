import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENV } from '../../lambdas/definitions/env';

/**
 * The document client of the cold-start baseline and reference, constructed at module load as
 * the functions' store constructs theirs (on first use), pointed the same way at the endpoint.
 */
const endpoint = process.env[ENV.dynamodbEndpoint];

export const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient(endpoint ? { endpoint } : {}));
