import type {
  ChangeMessageVisibilityCommandInput,
  SendMessageCommandInput,
  SendMessageCommandOutput,
} from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import { AwsJsonClient, type AwsJsonService, type WithoutMetadata } from '../aws/aws-json-client';
import { ENV } from '../definitions/env';

/**
 * SQS, over our small signed client (see lambdas/aws/aws-json-client.ts), with
 * @aws-sdk/client-sqs's command names and input and output types. Only the operations the
 * functions make are here.
 */

export class SendMessageCommand {
  readonly operation = 'SendMessage';
  declare readonly outputType: WithoutMetadata<SendMessageCommandOutput>;
  constructor(readonly input: SendMessageCommandInput) {}
}

export class ChangeMessageVisibilityCommand {
  readonly operation = 'ChangeMessageVisibility';
  declare readonly outputType: Record<string, never>;
  constructor(readonly input: ChangeMessageVisibilityCommandInput) {}
}

type QueueCommand = SendMessageCommand | ChangeMessageVisibilityCommand;

const SQS_SERVICE: AwsJsonService = { name: 'sqs', targetPrefix: 'AmazonSQS', endpointVariable: ENV.sqsEndpoint };

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

export class QueueClient {
  private readonly client = new AwsJsonClient(SQS_SERVICE);

  async send<TCommand extends QueueCommand>(command: TCommand): Promise<TCommand['outputType']> {
    const output = await this.client.send(command.operation, { ...command.input });
    // As the SDK does: a body that SQS did not receive intact fails the send.
    if (command instanceof SendMessageCommand && output.MD5OfMessageBody !== md5(command.input.MessageBody ?? '')) {
      throw new Error('SQS reported a different MD5 of the message body than was sent');
    }
    return output as TCommand['outputType'];
  }

  destroy(): void {
    this.client.destroy();
  }
}

let client: QueueClient | undefined;

/**
 * One SQS client per process, created on first use so that local mode can point it at its local
 * queue service (SQS_ENDPOINT) before any handler runs. On AWS the endpoint is unset.
 */
export function sqs(): QueueClient {
  client ??= new QueueClient();
  return client;
}

export function queueUrl(queue: { readonly envVar: string }): string {
  const url = process.env[queue.envVar];
  if (!url) throw new Error(`${queue.envVar} is not set`);
  return url;
}
