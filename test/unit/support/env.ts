/**
 * Environment the route modules read at import (SITE_URL via readFunctionSettings) and the stores read at
 * call time (table names). Import this module before any lambdas/routes module.
 */
export const TEST_ENV = {
  siteUrl: 'https://secrets.example.test/',
  keysTable: 'unit-keys',
  secretsTable: 'unit-secrets',
} as const;

process.env.SITE_URL = TEST_ENV.siteUrl;
process.env.KEYS_TABLE_NAME = TEST_ENV.keysTable;
process.env.SECRETS_TABLE_NAME = TEST_ENV.secretsTable;
process.env.AWS_REGION ??= 'us-east-1';
delete process.env.KEYS_PER_IP_PER_HOUR;
delete process.env.WEBHOOK_ALLOW_LOOPBACK;
delete process.env.DYNAMODB_ENDPOINT;
