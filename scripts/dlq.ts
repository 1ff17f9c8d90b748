import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import * as path from 'node:path';
import { ENV } from '#lambdas/definitions/env';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { PIPELINE_ENTRIES, QUEUES } from '#lambdas/definitions/webhooks';
import { LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { localSqsClient } from '#local/queue-service';
import { exitWithUsage, parseCommandLine } from './command-line';
import { type DlqEnv, readDlqEnv } from './dlq-env';
import { describeDeadLetter, listDeadLetters, peekDeadLetters, redriveDeadLetters } from './dlq-commands';
import { replayFanOutFailures, type FanOutHandler } from './fan-out-replay';

const USAGE = `Usage: npm run dlq -- <list | redrive | replay> [--dlq-url URL] [--queue-url URL] [--failures-url URL]

Inspects and redrives the webhook dead-letter queue: jobs whose delivery failed every attempt;
replays the stream batches the fan-out gave up on.

  list      Prints each dead letter (message id, receive count, sent time, and the job's event
            id, event and time) and how many there are. Leaves them where they are. On SQS,
            which cannot read a message without receiving it, each listing raises every receive
            count by one (and says so); local mode's queue service lists without receiving.
  redrive   Moves every dead letter back to the jobs queue, where delivery starts over, and
            says how many moved.
  replay    Reads each batch named in the fan-out failure queue back from the secrets table's
            stream (it keeps records 24 hours) and runs the fan-out on it in this process, which
            queues its webhook jobs again. A batch replayed in full leaves the failure queue;
            the others stay, each with the reason printed. Needs what the fan-out function has:
            ${KEYS_TABLE.envVar} set, the jobs queue, and its permissions (read the stream,
            BatchGetItem on the keys table, DeleteItem and BatchWriteItem on the secrets table,
            SendMessage to the jobs queue). ${SECRETS_TABLE.envVar} defaults to the stream's table.

  --dlq-url URL       the dead-letter queue  (default: $${QUEUES.deadLetters.envVar})
  --queue-url URL     the jobs queue, for redrive and replay  (default: $${QUEUES.jobs.envVar})
  --failures-url URL  the fan-out failure queue, for replay  (default: $${QUEUES.fanOutFailures.envVar})
  -h, --help          this text

On AWS the URLs are the stack's outputs WebhookDeadLetterQueueUrl, WebhookQueueUrl and
WebhookFanOutFailureQueueUrl, and region and credentials come from the usual AWS SDK settings
(AWS_REGION, AWS_PROFILE, ...). In local mode, set ${ENV.sqsEndpoint} to the local queue service and,
for replay, ${ENV.dynamodbEndpoint} to DynamoDB Local; \`npm start\` prints both commands.`;

function fail(message: string): never {
  return exitWithUsage(USAGE, message);
}

async function main(): Promise<void> {
  const parsed = parseCommandLine(USAGE, { 'dlq-url': { type: 'string' }, 'queue-url': { type: 'string' }, 'failures-url': { type: 'string' } }, 1);
  if (!parsed) return;
  const { values, positionals } = parsed;
  const [command] = positionals;
  let env: DlqEnv;
  try {
    env = readDlqEnv();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const client = env.sqsEndpoint ? localSqsClient(env.sqsEndpoint) : new SQSClient({});
  /** A queue's URL, from its option or else its variable. */
  const queue = (what: string, option: 'dlq-url' | 'queue-url' | 'failures-url', fallback: string | undefined, envVar: string): string =>
    (values[option] ?? fallback) || fail(`no ${what}: pass --${option} or set ${envVar}`);
  const jobsQueue = (): string => queue('jobs queue', 'queue-url', env.jobsQueueUrl, QUEUES.jobs.envVar);
  try {
    if (command === 'replay') {
      const failuresQueueUrl = queue('fan-out failure queue', 'failures-url', env.fanOutFailureQueueUrl, QUEUES.fanOutFailures.envVar);
      await replay(client, env, failuresQueueUrl, jobsQueue());
      return;
    }
    const deadLetterQueueUrl = queue('dead-letter queue', 'dlq-url', env.deadLetterQueueUrl, QUEUES.deadLetters.envVar);
    if (command === 'list') {
      const { letters, notReleased, countsRaised } = env.sqsEndpoint
        ? await peekDeadLetters(env.sqsEndpoint, deadLetterQueueUrl)
        : await listDeadLetters(client, deadLetterQueueUrl);
      for (const letter of letters) console.log(describeDeadLetter(letter));
      console.log(`${letters.length} dead letter${letters.length === 1 ? '' : 's'}`);
      if (countsRaised && letters.length > 0) {
        console.error('SQS cannot list without receiving: each receive count above includes this listing, and each listing adds one');
      }
      if (notReleased > 0) {
        console.error(`${notReleased} could not be released: a redrive misses them until the listing's hold on them ends`);
        process.exitCode = 1;
      }
    } else if (command === 'redrive') {
      const { moved, notSent, notDeleted } = await redriveDeadLetters(client, { deadLetterQueueUrl, queueUrl: jobsQueue() });
      console.log(`moved ${moved} dead letter${moved === 1 ? '' : 's'} back to the jobs queue`);
      if (notSent > 0) console.error(`${notSent} could not be sent to the jobs queue and are still dead letters`);
      if (notDeleted > 0) console.error(`${notDeleted} were sent but could not be deleted from the dead-letter queue`);
      if (notSent + notDeleted > 0) process.exitCode = 1;
    } else {
      fail(command ? `unknown command: ${command}` : 'no command given');
    }
  } finally {
    client.destroy();
  }
}

/** Table name of a DynamoDB stream ARN: arn:aws:dynamodb:<region>:<account>:table/<name>/stream/<label>. */
const tableOfStream = (streamArn: string | undefined): string | undefined => /:table\/([^/]+)\/stream\//.exec(streamArn ?? '')?.[1];

async function replay(sqs: SQSClient, { dynamoDbEndpoint, keysTableName }: DlqEnv, failuresQueueUrl: string, queueUrl: string): Promise<void> {
  if (!keysTableName) fail(`no keys table: set ${KEYS_TABLE.envVar} as the fan-out function has it`);
  // The fan-out handler reads its environment itself, as on Lambda.
  const env = process.env;
  env[QUEUES.jobs.envVar] = queueUrl;
  if (dynamoDbEndpoint) {
    // Local mode: the handler's clients read region and credentials from the environment, as on Lambda.
    env.AWS_REGION ??= LOCAL_AWS_SETTINGS.region;
    env.AWS_ACCESS_KEY_ID ??= LOCAL_AWS_SETTINGS.credentials.accessKeyId;
    env.AWS_SECRET_ACCESS_KEY ??= LOCAL_AWS_SETTINGS.credentials.secretAccessKey;
  }
  // stdout is this command's result: the handler's per-batch info lines stay out of it, while its
  // warnings and errors (which Powertools writes to stderr) still show. An operator's level wins.
  env[ENV.logLevel] ??= 'WARN';
  const streams = new DynamoDBStreamsClient(dynamoDbEndpoint ? { endpoint: dynamoDbEndpoint, ...LOCAL_AWS_SETTINGS } : {});
  // Imported once the environment is set: the handler's clients are built when its module loads.
  const { handler } = (await import(path.resolve(__dirname, '..', PIPELINE_ENTRIES.fanOut))) as { handler: FanOutHandler };
  const fanOut: FanOutHandler = (event, context) => {
    env[SECRETS_TABLE.envVar] ||= tableOfStream(event.Records[0]?.eventSourceARN);
    return handler(event, context);
  };
  try {
    const { replayed, records, left } = await replayFanOutFailures({ sqs, streams, failuresQueueUrl, fanOut });
    console.log(
      `replayed ${replayed} failed batch${replayed === 1 ? '' : 'es'} (${records} stream record${records === 1 ? '' : 's'} fanned out again)`,
    );
    for (const { messageId, why } of left) console.error(`${messageId} stays in the failure queue: ${why}`);
    if (left.length > 0) process.exitCode = 1;
  } finally {
    streams.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
