import { SQSClient } from '@aws-sdk/client-sqs';
import { parseArgs } from 'node:util';
import { ENV } from '../lambdas/definitions/env';
import { QUEUES } from '../lambdas/definitions/webhooks';
import { localSqsClient } from '../local/queue-service';
import { describeDeadLetter, listDeadLetters, redriveDeadLetters } from './dlq-commands';

const USAGE = `Usage: npm run dlq -- <list | redrive> [--dlq-url URL] [--queue-url URL]

Inspects and redrives the webhook dead-letter queue: jobs whose delivery failed every attempt.

  list      Prints each dead letter (message id, receive count, sent time, and the job's event
            id, event and time) and how many there are. Leaves them where they are.
  redrive   Moves every dead letter back to the jobs queue, where delivery starts over, and
            says how many moved.

  --dlq-url URL    the dead-letter queue  (default: $${QUEUES.deadLetters.envVar})
  --queue-url URL  the jobs queue, for redrive  (default: $${QUEUES.jobs.envVar})
  -h, --help       this text

On AWS the URLs are the stack's outputs WebhookDeadLetterQueueUrl and WebhookQueueUrl, and region
and credentials come from the usual AWS SDK settings (AWS_REGION, AWS_PROFILE, ...).
In local mode, set ${ENV.sqsEndpoint} to the local queue service; \`npm start\` prints the command.`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        'dlq-url': { type: 'string' },
        'queue-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const [command, ...extra] = positionals;
  if (extra.length > 0) fail(`unexpected arguments: ${extra.join(' ')}`);
  const env = process.env;
  const deadLetterQueueUrl = values['dlq-url'] ?? env[QUEUES.deadLetters.envVar];
  if (!deadLetterQueueUrl) fail(`no dead-letter queue: pass --dlq-url or set ${QUEUES.deadLetters.envVar}`);

  const endpoint = env[ENV.sqsEndpoint];
  const client = endpoint ? localSqsClient(endpoint) : new SQSClient({});
  try {
    if (command === 'list') {
      const { letters, notReleased } = await listDeadLetters(client, deadLetterQueueUrl);
      for (const letter of letters) console.log(describeDeadLetter(letter));
      console.log(`${letters.length} dead letter${letters.length === 1 ? '' : 's'}`);
      if (notReleased > 0) {
        console.error(`${notReleased} could not be released: a redrive misses them until the listing's hold on them ends`);
        process.exitCode = 1;
      }
    } else if (command === 'redrive') {
      const queueUrl = values['queue-url'] ?? env[QUEUES.jobs.envVar];
      if (!queueUrl) fail(`no jobs queue: pass --queue-url or set ${QUEUES.jobs.envVar}`);
      const { moved, notSent, notDeleted } = await redriveDeadLetters(client, { deadLetterQueueUrl, queueUrl });
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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
