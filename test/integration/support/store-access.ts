import { LOCAL_AWS_SETTINGS } from '#local/aws-account';
import { ENV } from '#lambdas/definitions/env';
import { KEYS_TABLE, SECRETS_TABLE } from '#lambdas/definitions/tables';
import { testEnv } from '#test/support/environment';

/**
 * Imported first by a test that calls the store functions itself: points them at the DynamoDB
 * Local and tables behind the shared server, before the store reads its environment.
 */
process.env[ENV.dynamodbEndpoint] = testEnv('dynamodbEndpoint');
process.env[KEYS_TABLE.envVar] = testEnv('keysTable');
process.env[SECRETS_TABLE.envVar] = testEnv('secretsTable');
process.env.AWS_REGION = LOCAL_AWS_SETTINGS.region;
process.env.AWS_ACCESS_KEY_ID = LOCAL_AWS_SETTINGS.credentials.accessKeyId;
process.env.AWS_SECRET_ACCESS_KEY = LOCAL_AWS_SETTINGS.credentials.secretAccessKey;
