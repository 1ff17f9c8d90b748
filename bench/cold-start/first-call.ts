import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { KEYS_TABLE } from '../../lambdas/definitions/tables';
import { documentClient } from './document-client';

/**
 * The cold-start reference: the baseline plus one GetItem (of an item that need not exist), the
 * least that a function reading or writing DynamoDB does on its first request. The SDK's first
 * call carries one-off work of its own (credentials, endpoint, signing, serde, the HTTP agent), so
 * this reference's ratio to the baseline is the floor of every function's.
 */
export async function handler(): Promise<{ statusCode: number; body: string }> {
  await documentClient.send(new GetCommand({ TableName: process.env[KEYS_TABLE.envVar], Key: { pk: 'cold-start' } }));
  return { statusCode: 200, body: '{}' };
}
