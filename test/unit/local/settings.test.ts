import { KEY_CREATION_LIMIT } from '#contract/limits';
import { DEFAULT_PORT, readLocalSettings } from '#local/settings';

/** `npm start`'s environment (docs/local-mode.md). */

test('defaults: port 3000 on loopback only, DynamoDB Local on any free port, in memory, with the request log', () => {
  expect(readLocalSettings({})).toEqual({
    port: DEFAULT_PORT,
    listenHost: '127.0.0.1',
    dynamoDbLocalPort: 0,
    dynamoDbEndpoint: undefined,
    dataDir: undefined,
    requestLog: true,
  });
  expect(readLocalSettings({ PORT: '', LOCAL_REQUEST_LOG: '', DATA_DIR: '' })).toEqual(readLocalSettings({}));
});

test('takes each value as set', () => {
  expect(
    readLocalSettings({
      PORT: '0',
      LISTEN_HOST: '0.0.0.0',
      DYNAMODB_LOCAL_PORT: '8000',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      DATA_DIR: 'data',
      LOCAL_REQUEST_LOG: 'off',
    }),
  ).toEqual({
    port: 0,
    listenHost: '0.0.0.0',
    dynamoDbLocalPort: 8000,
    dynamoDbEndpoint: 'http://127.0.0.1:8000',
    dataDir: 'data',
    requestLog: false,
  });
});

test('LISTEN_HOST must be an IP address, not a name', () => {
  expect(() => readLocalSettings({ LISTEN_HOST: 'everywhere' })).toThrow(
    'LISTEN_HOST must be an IP address (0.0.0.0: every interface), got "everywhere"',
  );
});

test('checks the functions’ variables too, in the functions’ words, before anything starts', () => {
  expect(() => readLocalSettings({ KEYS_PER_IP_PER_HOUR: '0' })).toThrow(
    `KEYS_PER_IP_PER_HOUR must be an integer from 1 to ${KEY_CREATION_LIMIT.maxPerIpPerHour} (so that an address's hour of attempts fits one DynamoDB item), got "0"`,
  );
  expect(
    readLocalSettings({ KEYS_PER_IP_PER_HOUR: '1000', WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_RETRY_BASE_MS: '50', POWERTOOLS_LOG_LEVEL: 'debug' }),
  ).toEqual(readLocalSettings({}));
});

test.each<[Record<string, string>, string]>([
  [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
  [{ PORT: 'http' }, 'PORT must be an integer from 0 to 65535, got "http"'],
  [{ DYNAMODB_LOCAL_PORT: '-1' }, 'DYNAMODB_LOCAL_PORT must be an integer from 0 to 65535, got "-1"'],
  [{ DYNAMODB_ENDPOINT: 'localhost:8000' }, 'DYNAMODB_ENDPOINT must be an absolute http(s) URL, got "localhost:8000"'],
  [{ LOCAL_REQUEST_LOG: 'no' }, 'LOCAL_REQUEST_LOG must be one of on, off, got "no"'],
  [{ SITE_URL: '/s' }, 'SITE_URL must be an absolute http(s) URL of at most 2048 characters, got "/s"'],
  [{ WEBHOOK_ALLOW_LOOPBACK: 'yes' }, 'WEBHOOK_ALLOW_LOOPBACK must be true or false (or 1 or 0), got "yes"'],
  [{ WEBHOOK_RETRY_BASE_MS: '1s' }, 'WEBHOOK_RETRY_BASE_MS must be an integer from 1 to'],
  [
    { POWERTOOLS_LOG_LEVEL: 'loud' },
    'POWERTOOLS_LOG_LEVEL must be one of TRACE, DEBUG, INFO, WARN, ERROR, CRITICAL, SILENT (in any case), got "loud"',
  ],
])('%j is refused: %s', (env, message) => {
  expect(() => readLocalSettings(env)).toThrow(message);
});
