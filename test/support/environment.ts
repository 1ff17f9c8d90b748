/** What global-setup started, handed to the test workers through environment variables. */
export const TEST_ENV = {
  baseUrl: 'TEST_API_BASE_URL',
  siteUrl: 'TEST_SITE_URL',
  dynamodbEndpoint: 'TEST_DYNAMODB_ENDPOINT',
  keysTable: 'TEST_KEYS_TABLE',
  secretsTable: 'TEST_SECRETS_TABLE',
} as const;

export function testEnv(name: keyof typeof TEST_ENV): string {
  const value = process.env[TEST_ENV[name]];
  if (!value) throw new Error(`${TEST_ENV[name]} is not set: run the integration tests through jest`);
  return value;
}
