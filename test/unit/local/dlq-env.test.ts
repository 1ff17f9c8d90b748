import { readDlqEnv } from '#scripts/dlq';

/** `npm run dlq`'s environment: queue URLs (each also an option) and local mode's endpoints. */

test('everything is optional: each command says what it lacks', () => {
  expect(readDlqEnv({})).toEqual({});
});

test('takes what npm start prints', () => {
  const printed = {
    SQS_ENDPOINT: 'http://127.0.0.1:4566',
    DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
    WEBHOOK_QUEUE_URL: 'http://127.0.0.1:4566/000000000000/local-WebhookJobs',
    WEBHOOK_DEAD_LETTER_QUEUE_URL: 'http://127.0.0.1:4566/000000000000/local-WebhookDeadLetters',
    WEBHOOK_FAN_OUT_FAILURE_QUEUE_URL: 'http://127.0.0.1:4566/000000000000/local-WebhookFanOutFailures',
    KEYS_TABLE_NAME: 'local-ApiKeys',
  };
  expect(readDlqEnv(printed)).toEqual(printed);
});

test.each(['SQS_ENDPOINT', 'DYNAMODB_ENDPOINT', 'WEBHOOK_QUEUE_URL', 'WEBHOOK_DEAD_LETTER_QUEUE_URL', 'WEBHOOK_FAN_OUT_FAILURE_QUEUE_URL'])(
  '%s must be a URL, and the error says so',
  (name) => {
    expect(() => readDlqEnv({ [name]: 'local-WebhookJobs' })).toThrow(new Error(`${name} must be an absolute http(s) URL, got "local-WebhookJobs"`));
  },
);
