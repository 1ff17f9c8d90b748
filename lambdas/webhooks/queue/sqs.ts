import { SQSClient } from '@aws-sdk/client-sqs';
import { sdkClientSettings } from '#lambdas/store/sdk-settings';
import { ENV } from '#lambdas/definitions/env';

/**
 * One SQS client per container, built at module load (local mode sets SQS_ENDPOINT to its local
 * queue service before it imports any handler; on AWS the endpoint is unset).
 */
export const sqs = new SQSClient(sdkClientSettings(process.env[ENV.sqsEndpoint]));

export function queueUrl(queue: { readonly envVar: string }): string {
  const url = process.env[queue.envVar];
  if (!url) throw new Error(`${queue.envVar} is not set`);
  return url;
}
