import './env';
import { QUEUES } from '#lambdas/definitions/webhooks';

/**
 * Environment of the webhook pipeline functions, on top of ./env. The delivery function reads
 * WEBHOOK_ALLOW_LOOPBACK and WEBHOOK_RETRY_BASE_MS when its module loads, so import this module
 * before any lambdas/consumers module (./env alone clears WEBHOOK_ALLOW_LOOPBACK).
 */
export const WEBHOOK_TEST_ENV = {
  jobsQueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/unit-webhook-jobs',
  consumedSecretsQueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/unit-consumed-secrets',
  retryBaseMs: 1_000,
} as const;

process.env.WEBHOOK_QUEUE_URL = WEBHOOK_TEST_ENV.jobsQueueUrl;
process.env[QUEUES.consumedSecrets.envVar] = WEBHOOK_TEST_ENV.consumedSecretsQueueUrl;
process.env.WEBHOOK_ALLOW_LOOPBACK = '1';
process.env.WEBHOOK_RETRY_BASE_MS = String(WEBHOOK_TEST_ENV.retryBaseMs);
delete process.env.SQS_ENDPOINT;
