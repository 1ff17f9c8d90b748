/**
 * Local mode's one AWS account and the settings its clients use. No imports: processes that must
 * stay light (the cold-start runner) can name the same account.
 */

/** DynamoDB Local accepts any region and credentials, but the SDK insists on having some. */
export const LOCAL_AWS_SETTINGS = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
} as const;

/** Named in local mode's ARNs, queue URLs and request contexts. */
export const LOCAL_ACCOUNT_ID = '000000000000';
