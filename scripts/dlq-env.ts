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

export type DlqEnv = ReturnType<typeof readDlqEnv>;

export function readDlqEnv(env: Readonly<Record<string, string | undefined>> = process.env) {
  const settings = readSettings(DLQ_ENV, { read: (name) => env[name] });
  return {
    /** Local mode's queue service; none: SQS. */
    sqsEndpoint: settings[ENV.sqsEndpoint],
    /** DynamoDB Local, for replay; none: DynamoDB. */
    dynamoDbEndpoint: settings[ENV.dynamodbEndpoint],
    jobsQueueUrl: settings[QUEUES.jobs.envVar],
    deadLetterQueueUrl: settings[QUEUES.deadLetters.envVar],
    fanOutFailureQueueUrl: settings[QUEUES.fanOutFailures.envVar],
    /** The fan-out function's keys table, which replay needs. */
    keysTableName: settings[KEYS_TABLE.envVar],
  };
}
