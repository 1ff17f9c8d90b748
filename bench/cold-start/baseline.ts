import { documentClient } from './document-client';

/**
 * The cold-start baseline: the least a function of this service loads, the DynamoDB document
 * client, constructed and then left idle. Its handler answers at once.
 */
export async function handler(): Promise<{ statusCode: number; body: string }> {
  // Reading the client keeps it (and its construction) in the bundle whatever the minifier decides.
  return { statusCode: 200, body: JSON.stringify({ client: documentClient.constructor.name }) };
}
