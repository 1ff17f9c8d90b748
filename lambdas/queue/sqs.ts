import { SQSClient } from '@aws-sdk/client-sqs';
import { withoutSdkLogging } from '../aws/sdk-client';
import { ENV } from '../definitions/env';

let client: SQSClient | undefined;

/**
 * One SQS client per process, created on first use so that local mode can point it at its local
 * queue service (SQS_ENDPOINT) before any handler runs. On AWS the endpoint is unset.
 */
export function sqs(): SQSClient {
  if (!client) {
    const endpoint = process.env[ENV.sqsEndpoint];
    client = withoutSdkLogging(new SQSClient(endpoint ? { endpoint } : {}));
  }
  return client;
}

export function queueUrl(queue: { readonly envVar: string }): string {
  const url = process.env[queue.envVar];
  if (!url) throw new Error(`${queue.envVar} is not set`);
  return url;
}
