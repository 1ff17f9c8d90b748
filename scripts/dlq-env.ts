import * as z from 'zod/mini';
import { httpUrl, readSettings, text } from '#lambdas/config/fields';
import { ENV } from '#lambdas/definitions/env';
import { KEYS_TABLE } from '#lambdas/definitions/tables';
import { QUEUES } from '#lambdas/definitions/webhooks';

/**
 * What `npm run dlq` reads from its environment: the queues' URLs (each also an option), and for
 * local mode the endpoints `npm start` prints. Replay runs the fan-out handler, which reads the
 * rest of its environment itself, as on Lambda.
 */
const DLQ_ENV = z.object({
  [ENV.sqsEndpoint]: z.optional(httpUrl()),
  [ENV.dynamodbEndpoint]: z.optional(httpUrl()),
  [QUEUES.jobs.envVar]: z.optional(httpUrl()),
  [QUEUES.deadLetters.envVar]: z.optional(httpUrl()),
  [QUEUES.fanOutFailures.envVar]: z.optional(httpUrl()),
  [KEYS_TABLE.envVar]: z.optional(text()),
});

export interface DlqEnv {
  /** Local mode's queue service; none: SQS. */
  readonly sqsEndpoint: string | undefined;
  /** DynamoDB Local, for replay; none: DynamoDB. */
  readonly dynamoDbEndpoint: string | undefined;
  readonly jobsQueueUrl: string | undefined;
  readonly deadLetterQueueUrl: string | undefined;
  readonly fanOutFailureQueueUrl: string | undefined;
  /** The fan-out function's keys table, which replay needs. */
  readonly keysTableName: string | undefined;
}

export function readDlqEnv(env: Readonly<Record<string, string | undefined>> = process.env): DlqEnv {
  const settings = readSettings(DLQ_ENV, { read: (name) => env[name] });
  return {
    sqsEndpoint: settings[ENV.sqsEndpoint],
    dynamoDbEndpoint: settings[ENV.dynamodbEndpoint],
    jobsQueueUrl: settings[QUEUES.jobs.envVar],
    deadLetterQueueUrl: settings[QUEUES.deadLetters.envVar],
    fanOutFailureQueueUrl: settings[QUEUES.fanOutFailures.envVar],
    keysTableName: settings[KEYS_TABLE.envVar],
  };
}
