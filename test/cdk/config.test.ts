import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { DEFAULT_STACK_NAME, DEFAULT_THROTTLE, DEFAULT_WRITE_UNITS_ALARM_PER_HOUR } from '#lambdas/definitions/deployment';
import { SETTINGS } from '#lambdas/config/settings';
import { ADDRESS_RATE_LIMIT, GATE, KEY_CREATION_LIMIT, STORED_BYTES_LIMIT } from '#contract/limits';
import { DEFAULT_LOG_LEVEL } from '#lambdas/definitions/observability';
import { ROUTES } from '#lambdas/definitions/routes';
import { DELIVERY_FUNCTION_TIMEOUT_MS, WEBHOOK_RETRIES, WEBHOOK_RETRY_BASE_MS } from '#lambdas/definitions/webhooks';
import { readStackConfig, type SecretsStackConfig } from '#lib/config';
import { assemblyDirectory, synthesize } from './support/synth';
import { at, resource, resourcesOfType, routeFunctionId } from './support/template';
import { pipelineOf } from './support/webhooks';

/** The environment of every route function that reads `setting` (its row names them). */
const environments = (setting: 'siteUrl' | 'keysPerIpPerHour', context: Record<string, unknown>): unknown[] => {
  const { template } = synthesize(context);
  const readers = ROUTES.filter((route) => SETTINGS[setting].functions.some((name) => name === route.name));
  expect(readers.length).toBeGreaterThan(0);
  return readers.map((route) => at(resource(template, routeFunctionId(template, route)).Properties, 'Environment', 'Variables'));
};

const deliveryEnvironment = (context: Record<string, unknown>): unknown => {
  const { template } = synthesize(context);
  return at(resource(template, pipelineOf(template).deliveryId).Properties, 'Environment', 'Variables');
};

/**
 * SQS's ceiling on a message's visibility, counted from its receipt: the last retry's delay (base ×
 * 12^(retries−1), up to 10% longer with jitter) plus its attempt must fit.
 */
const SQS_MAX_VISIBILITY_MS = 12 * 60 * 60 * 1000;
const LARGEST_RETRY_BASE_MS = Math.floor((SQS_MAX_VISIBILITY_MS - DELIVERY_FUNCTION_TIMEOUT_MS) / (12 ** (WEBHOOK_RETRIES - 1) * 1.1));

describe('context reaches the stack', () => {
  it('siteUrl becomes the SITE_URL of every route function that reads it', () => {
    const siteUrl = 'https://secrets.example.com/s';
    for (const env of environments('siteUrl', { siteUrl })) expect(env).toHaveProperty(SETTINGS.siteUrl.env, siteUrl);
  });

  it('keysPerIpPerHour becomes KEYS_PER_IP_PER_HOUR, whether given as a number (cdk.json) or a string (-c)', () => {
    for (const given of [7, '7']) {
      for (const env of environments('keysPerIpPerHour', { keysPerIpPerHour: given })) expect(env).toHaveProperty(SETTINGS.keysPerIpPerHour.env, '7');
    }
  });

  it('keysPerIpPerHour may go as high as one DynamoDB item holds an address’s hour of attempts', () => {
    const highest = KEY_CREATION_LIMIT.maxPerIpPerHour;
    for (const env of environments('keysPerIpPerHour', { keysPerIpPerHour: highest }))
      expect(env).toHaveProperty(SETTINGS.keysPerIpPerHour.env, String(highest));
  });

  it('throttle limits set the stage’s throttling', () => {
    const { template } = synthesize({ throttleRateLimit: '5', throttleBurstLimit: 9 });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 9 })],
    });
  });

  it('webhookRetryBaseMs becomes the delivery function’s WEBHOOK_RETRY_BASE_MS, as a number or a string', () => {
    for (const given of [5000, '5000'])
      expect(deliveryEnvironment({ webhookRetryBaseMs: given })).toHaveProperty(SETTINGS.webhookRetryBaseMs.env, '5000');
  });

  it('webhookRetryBaseMs may go as high as SQS’s visibility limit allows the last retry', () => {
    expect(deliveryEnvironment({ webhookRetryBaseMs: LARGEST_RETRY_BASE_MS })).toHaveProperty(
      SETTINGS.webhookRetryBaseMs.env,
      String(LARGEST_RETRY_BASE_MS),
    );
  });

  it('logLevel becomes every function’s POWERTOOLS_LOG_LEVEL, in any case; INFO without it', () => {
    const levels = (context: Record<string, unknown>): unknown[] => {
      const { template } = synthesize(context);
      const { fanOutId, deliveryId } = pipelineOf(template);
      const ids = [...ROUTES.map((route) => routeFunctionId(template, route)), fanOutId, deliveryId];
      return ids.map((id) => at(resource(template, id).Properties, 'Environment', 'Variables', SETTINGS.logLevel.env));
    };
    expect(new Set(levels({}))).toEqual(new Set([DEFAULT_LOG_LEVEL]));
    expect(new Set(levels({ logLevel: 'debug' }))).toEqual(new Set(['DEBUG']));
  });

  it('alarmEmail subscribes that address to the alarm topic', () => {
    const { template } = synthesize({ alarmEmail: 'ops+webhooks@example.co.uk' });
    expect(resourcesOfType(template, 'AWS::SNS::Subscription').map(([, subscription]) => at(subscription.Properties, 'Endpoint'))).toEqual([
      'ops+webhooks@example.co.uk',
    ]);
  });
});

/** The settings as the stack gets them, without synthesizing it. */
const configFrom = (context: Record<string, unknown>): SecretsStackConfig => readStackConfig(new App({ outdir: assemblyDirectory(), context }).node);

const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';

describe('context: defaults', () => {
  it('gives every setting its default when cdk.json and -c set none (or set it empty)', () => {
    const defaults = {
      stackName: DEFAULT_STACK_NAME,
      siteUrl: undefined,
      customDomain: undefined,
      keysPerIpPerHour: KEY_CREATION_LIMIT.defaultPerIpPerHour,
      throttle: DEFAULT_THROTTLE,
      webhookRetryBaseMs: WEBHOOK_RETRY_BASE_MS.aws,
      alarmEmail: undefined,
      secretsPointInTimeRecovery: false,
      apiGatewayCloudWatchRole: false,
      logLevel: DEFAULT_LOG_LEVEL,
      waf: { requestsPerAddress: ADDRESS_RATE_LIMIT.defaultPerWindow },
      signIn: undefined,
      storedMiBPerKeyPerDay: STORED_BYTES_LIMIT.defaultMiBPerKeyPerDay,
      storedMiBPerAddressPerDay: STORED_BYTES_LIMIT.defaultMiBPerAddressPerDay,
      writeUnitsAlarmPerHour: DEFAULT_WRITE_UNITS_ALARM_PER_HOUR,
      passphraseAttempts: GATE.attempts,
    };
    expect(configFrom({})).toEqual(defaults);
    expect(configFrom({ stackName: '', keysPerIpPerHour: '', apiGatewayCloudWatchRole: '', waf: '', wafRateLimit: '' })).toEqual(defaults);
  });

  it('takes numbers and switches as cdk.json’s JSON or as -c’s strings', () => {
    const asJson = configFrom({ keysPerIpPerHour: 7, throttleRateLimit: 5, secretsPointInTimeRecovery: true, apiGatewayCloudWatchRole: false });
    const asText = configFrom({ keysPerIpPerHour: '7', throttleRateLimit: '5', secretsPointInTimeRecovery: 'true', apiGatewayCloudWatchRole: '0' });
    expect(asText).toEqual(asJson);
    expect(asJson).toMatchObject({
      keysPerIpPerHour: 7,
      throttle: { rateLimit: 5 },
      secretsPointInTimeRecovery: true,
      apiGatewayCloudWatchRole: false,
    });
    expect(configFrom({ apiGatewayCloudWatchRole: '1' }).apiGatewayCloudWatchRole).toBe(true);
  });

  it('groups domainName and certificateArn into the distribution’s custom domain', () => {
    expect(configFrom({ domainName: 'secrets.example.com', certificateArn: CERTIFICATE_ARN }).customDomain).toEqual({
      domainName: 'secrets.example.com',
      certificateArn: CERTIFICATE_ARN,
    });
  });
});

describe('context: a bad value names the key, what it must be and what was given', () => {
  const LARGEST_KEYS = KEY_CREATION_LIMIT.maxPerIpPerHour;
  it.each<[string, unknown, string]>([
    [
      'stackName',
      'one-time_secrets',
      'context stackName must be a CloudFormation stack name: a letter, then letters, digits or hyphens, 128 at most, got "one-time_secrets"',
    ],
    [
      'stackName',
      '2stages',
      'context stackName must be a CloudFormation stack name: a letter, then letters, digits or hyphens, 128 at most, got "2stages"',
    ],
    ['stackName', `S${'x'.repeat(128)}`, 'context stackName must be a CloudFormation stack name'],
    ['siteUrl', 'secrets.example.com', 'context siteUrl must be an absolute http(s) URL of at most 2048 characters, got "secrets.example.com"'],
    [
      'siteUrl',
      'ftp://secrets.example.com',
      'context siteUrl must be an absolute http(s) URL of at most 2048 characters, got "ftp://secrets.example.com"',
    ],
    [
      'keysPerIpPerHour',
      '0',
      `context keysPerIpPerHour must be an integer from 1 to ${LARGEST_KEYS} (so that an address's hour of attempts fits one DynamoDB item), got "0"`,
    ],
    [
      'keysPerIpPerHour',
      2.5,
      `context keysPerIpPerHour must be an integer from 1 to ${LARGEST_KEYS} (so that an address's hour of attempts fits one DynamoDB item), got "2.5"`,
    ],
    [
      'keysPerIpPerHour',
      LARGEST_KEYS + 1,
      `context keysPerIpPerHour must be an integer from 1 to ${LARGEST_KEYS} (so that an address's hour of attempts fits one DynamoDB item), got "${LARGEST_KEYS + 1}"`,
    ],
    ['throttleRateLimit', 'fast', 'context throttleRateLimit must be a positive integer, got "fast"'],
    ['throttleBurstLimit', '0', 'context throttleBurstLimit must be a positive integer, got "0"'],
    [
      'webhookRetryBaseMs',
      '1e3',
      'context webhookRetryBaseMs must be an integer from 1 to 272601 (so that the last retry\'s wait fits SQS\'s 12-hour visibility limit), got "1e3"',
    ],
    ['webhookRetryBaseMs', LARGEST_RETRY_BASE_MS + 1, `context webhookRetryBaseMs must be an integer from 1 to ${LARGEST_RETRY_BASE_MS}`],
    ['alarmEmail', 'ops@example', 'context alarmEmail must be an email address such as ops@example.com, got "ops@example"'],
    ['alarmEmail', 'Ops <ops@example.com>', 'context alarmEmail must be an email address such as ops@example.com, got "Ops <ops@example.com>"'],
    [
      'alarmEmail',
      'ops@example.com, dev@example.com',
      'context alarmEmail must be an email address such as ops@example.com, got "ops@example.com, dev@example.com"',
    ],
    ['alarmEmail', 42, 'context alarmEmail must be an email address such as ops@example.com, got "42"'],
    ['secretsPointInTimeRecovery', 'yes', 'context secretsPointInTimeRecovery must be true or false (or 1 or 0), got "yes"'],
    ['apiGatewayCloudWatchRole', 'on', 'context apiGatewayCloudWatchRole must be true or false (or 1 or 0), got "on"'],
    ['logLevel', 'verbose', 'context logLevel must be one of TRACE, DEBUG, INFO, WARN, ERROR, CRITICAL, SILENT (in any case), got "verbose"'],
    ['logLevel', ['INFO'], 'context logLevel must be one of TRACE, DEBUG, INFO, WARN, ERROR, CRITICAL, SILENT (in any case), got ["INFO"]'],
  ])('%s=%j', (key, value, message) => {
    expect(() => configFrom({ [key]: value })).toThrow(message);
  });

  it.each<[string, string, string]>([
    ['domainName', 'secrets', 'context domainName must be a host name such as secrets.example.com, got "secrets"'],
    [
      'certificateArn',
      CERTIFICATE_ARN.replace('us-east-1', 'eu-west-1'),
      'context certificateArn must be the ARN of an ACM certificate in us-east-1 (CloudFront\'s region), got "arn:aws:acm:eu-west-1:',
    ],
  ])('%s=%j', (key, value, message) => {
    expect(() => configFrom({ domainName: 'secrets.example.com', certificateArn: CERTIFICATE_ARN, [key]: value })).toThrow(message);
  });

  it.each(['domainName', 'certificateArn'])('%s alone is refused: the two go together', (key) => {
    const both: Record<string, string> = { domainName: 'secrets.example.com', certificateArn: CERTIFICATE_ARN };
    expect(() => configFrom({ [key]: both[key] })).toThrow('context domainName and certificateArn go together: set both, or neither');
  });

  it('lists every bad value at once, one per line', () => {
    expect(() => configFrom({ keysPerIpPerHour: 'many', alarmEmail: 'ops' })).toThrow(
      /^context keysPerIpPerHour must be .*, got "many"\ncontext alarmEmail must be .*, got "ops"$/,
    );
  });

  it('fails the synthesis itself', () => {
    expect(() => synthesize({ keysPerIpPerHour: '0' })).toThrow('context keysPerIpPerHour must be an integer');
  });
});
