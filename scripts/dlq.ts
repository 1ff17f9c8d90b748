import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { httpUrl, readSettings, text } from '#lambdas/config/fields';
import { SETTINGS } from '#lambdas/config/settings';
import { ENV } from '#lambdas/definitions/env';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { PIPELINE_ENTRIES, QUEUES } from '#lambdas/definitions/webhooks';
import { LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { localSqsClient } from '#local/queue-service';
import { exitWithUsage, parseCommandLine, readOrExit } from './command-line';
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

/**
 * The queues' URLs (each also an option), local mode's endpoints (none: SQS and DynamoDB) and the
 * keys table replay needs; the fan-out handler reads the rest of its environment itself, as on Lambda.
 */
const DLQ_ENV = z.object({
  [ENV.sqsEndpoint]: z.optional(httpUrl()),
  [ENV.dynamodbEndpoint]: z.optional(httpUrl()),
  [QUEUES.jobs.envVar]: z.optional(httpUrl()),
  [QUEUES.deadLetters.envVar]: z.optional(httpUrl()),
  [QUEUES.fanOutFailures.envVar]: z.optional(httpUrl()),
  [KEYS_TABLE.envVar]: z.optional(text()),
});

export const readDlqEnv = (env: Readonly<Record<string, string | undefined>> = process.env) => readSettings(DLQ_ENV, { read: (name) => env[name] });

type DlqEnv = ReturnType<typeof readDlqEnv>;
type QueueOption = 'dlq-url' | 'queue-url' | 'failures-url';

/** `queue`: a queue's URL, from its option or else its variable; the command fails without either. */
type Command = { sqs: SQSClient; env: DlqEnv; queue: (option: QueueOption) => string };

const QUEUE_OPTIONS: Record<QueueOption, { what: string; envVar: keyof DlqEnv }> = {
  'dlq-url': { what: 'dead-letter queue', envVar: QUEUES.deadLetters.envVar },
  'queue-url': { what: 'jobs queue', envVar: QUEUES.jobs.envVar },
  'failures-url': { what: 'fan-out failure queue', envVar: QUEUES.fanOutFailures.envVar },
};

const plural = (count: number, noun: string, suffix = 's'): string => `${count} ${noun}${count === 1 ? '' : suffix}`;

async function list({ sqs, env, queue }: Command): Promise<void> {
  const sqsEndpoint = env[ENV.sqsEndpoint];
  const listing = sqsEndpoint ? peekDeadLetters(sqsEndpoint, queue('dlq-url')) : listDeadLetters(sqs, queue('dlq-url'));
  const { letters, notReleased, countsRaised } = await listing;
  for (const letter of letters) console.log(describeDeadLetter(letter));
  console.log(plural(letters.length, 'dead letter'));
  if (countsRaised && letters.length > 0) {
    console.error('SQS cannot list without receiving: each receive count above includes this listing, and each listing adds one');
  }
  if (notReleased > 0) {
    console.error(`${notReleased} could not be released: a redrive misses them until the listing's hold on them ends`);
    process.exitCode = 1;
  }
}

async function redrive({ sqs, queue }: Command): Promise<void> {
  const { moved, notDeleted } = await redriveDeadLetters(sqs, { deadLetterQueueUrl: queue('dlq-url'), queueUrl: queue('queue-url') });
  console.log(`moved ${plural(moved, 'dead letter')} back to the jobs queue`);
  if (notDeleted > 0) {
    console.error(`${notDeleted} were sent but could not be deleted from the dead-letter queue`);
    process.exitCode = 1;
  }
}

/** Table name of a DynamoDB stream ARN: arn:aws:dynamodb:<region>:<account>:table/<name>/stream/<label>. */
const tableOfStream = (streamArn: string | undefined): string | undefined => /:table\/([^/]+)\/stream\//.exec(streamArn ?? '')?.[1];

async function replay({ sqs, env: settings, queue }: Command): Promise<void> {
  const [failuresQueueUrl, queueUrl] = [queue('failures-url'), queue('queue-url')];
  if (!settings[KEYS_TABLE.envVar]) exitWithUsage(USAGE, `no keys table: set ${KEYS_TABLE.envVar} as the fan-out function has it`);
  // The fan-out handler reads its environment itself, as on Lambda.
  const env = process.env;
  env[QUEUES.jobs.envVar] = queueUrl;
  const dynamoDbEndpoint = settings[ENV.dynamodbEndpoint];
  if (dynamoDbEndpoint) {
    // Local mode: the handler's clients read region and credentials from the environment, as on Lambda.
    env.AWS_REGION ??= LOCAL_AWS_SETTINGS.region;
    env.AWS_ACCESS_KEY_ID ??= LOCAL_AWS_SETTINGS.credentials.accessKeyId;
    env.AWS_SECRET_ACCESS_KEY ??= LOCAL_AWS_SETTINGS.credentials.secretAccessKey;
  }
  // stdout is this command's result: the handler's per-batch info lines stay out of it, while its
  // warnings and errors (which Powertools writes to stderr) still show. An operator's level wins.
  env[SETTINGS.logLevel.env] ??= 'WARN';
  const streams = new DynamoDBStreamsClient(dynamoDbEndpoint ? { endpoint: dynamoDbEndpoint, ...LOCAL_AWS_SETTINGS } : {});
  // Imported once the environment is set: the handler's clients are built when its module loads.
  const { handler } = (await import(path.resolve(__dirname, '..', PIPELINE_ENTRIES.fanOut))) as { handler: FanOutHandler };
  const fanOut: FanOutHandler = (event, context) => {
    env[SECRETS_TABLE.envVar] ||= tableOfStream(event.Records[0]?.eventSourceARN);
    return handler(event, context);
  };
  try {
    const { replayed, records, left } = await replayFanOutFailures({ sqs, streams, failuresQueueUrl, fanOut });
    console.log(`replayed ${plural(replayed, 'failed batch', 'es')} (${plural(records, 'stream record')} fanned out again)`);
    for (const { messageId, why } of left) console.error(`${messageId} stays in the failure queue: ${why}`);
    if (left.length > 0) process.exitCode = 1;
  } finally {
    streams.destroy();
  }
}

const COMMANDS: Record<string, (command: Command) => Promise<void>> = { list, redrive, replay };

async function main(): Promise<void> {
  const parsed = parseCommandLine(USAGE, { 'dlq-url': { type: 'string' }, 'queue-url': { type: 'string' }, 'failures-url': { type: 'string' } }, 1);
  if (!parsed) return;
  const [name] = parsed.positionals;
  const run = name === undefined ? undefined : COMMANDS[name];
  if (!run) return exitWithUsage(USAGE, name ? `unknown command: ${name}` : 'no command given');
  const env = readOrExit(USAGE, () => readDlqEnv());
  const queue = (option: QueueOption): string => {
    const { what, envVar } = QUEUE_OPTIONS[option];
    return (parsed.values[option] ?? env[envVar]) || exitWithUsage(USAGE, `no ${what}: pass --${option} or set ${envVar}`);
  };
  const sqsEndpoint = env[ENV.sqsEndpoint];
  const sqs = sqsEndpoint ? localSqsClient(sqsEndpoint) : new SQSClient({});
  try {
    await run({ sqs, env, queue });
  } finally {
    sqs.destroy();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
    process.exit(1);
  });
}
