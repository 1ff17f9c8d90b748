import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { queueUrl, sqs } from './sqs';
import { QUEUES } from '#lambdas/definitions/webhooks';

/**
 * A consumed secret as the fan-out deletes it: its id, its chunk count and, for an answer's, its
 * chunks' id. Or, marked revokedChunks, the chunks a revoked secret left under its id, which only
 * a head that is not back lets go (deleteRevokedChunks).
 */
export interface ConsumedSecretMessage {
  id: string;
  chunks: number;
  chunkId?: string;
  revokedChunks?: true;
}

/**
 * The consumed-secrets queue: a secret to delete once its delay has passed. SQS delays a message
 * by whole seconds, at most 900; the delays sent here are at most REPLAY_RETENTION_MS.
 */
export async function deleteConsumedSecretLater(secret: ConsumedSecretMessage, delayMs: number): Promise<void> {
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl(QUEUES.consumedSecrets),
      MessageBody: JSON.stringify(secret),
      DelaySeconds: Math.min(900, Math.max(0, Math.ceil(delayMs / 1000))),
    }),
  );
}
