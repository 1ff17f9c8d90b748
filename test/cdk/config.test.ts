import { Match } from 'aws-cdk-lib/assertions';
import { ENV } from '../../lambdas/definitions/env';
import { KEY_CREATION_LIMIT } from '../../lambdas/definitions/limits';
import { DEFAULT_LOG_LEVEL } from '../../lambdas/definitions/observability';
import { ROUTES } from '../../lambdas/definitions/routes';
import { DELIVERY_FUNCTION_TIMEOUT_MS, WEBHOOK_RETRIES } from '../../lambdas/definitions/webhooks';
import { synthesize } from './support/synth';
import { at, resource, resourcesOfType, routeFunctionId } from './support/template';
import { pipelineOf } from './support/webhooks';

/** Every route function's environment. */
const environments = (context: Record<string, unknown>): unknown[] => {
  const { template } = synthesize(context);
  return ROUTES.map((route) => at(resource(template, routeFunctionId(template, route)).Properties, 'Environment', 'Variables'));
};

const deliveryEnvironment = (context: Record<string, unknown>): unknown => {
  const { template } = synthesize(context);
  return at(resource(template, pipelineOf(template).deliveryId).Properties, 'Environment', 'Variables');
};

/** SQS's ceiling on a message's visibility, counted from its receipt: the last retry's delay plus its attempt must fit. */
const SQS_MAX_VISIBILITY_MS = 12 * 60 * 60 * 1000;
const LARGEST_RETRY_BASE_MS = Math.floor((SQS_MAX_VISIBILITY_MS - DELIVERY_FUNCTION_TIMEOUT_MS) / 2 ** (WEBHOOK_RETRIES - 1));

describe('context', () => {
  it('siteUrl becomes every route function’s SITE_URL', () => {
    const siteUrl = 'https://secrets.example.com/s';
    for (const env of environments({ siteUrl })) expect(env).toHaveProperty(ENV.siteUrl, siteUrl);
  });

  it('keysPerIpPerHour becomes KEYS_PER_IP_PER_HOUR, whether given as a number (cdk.json) or a string (-c)', () => {
    for (const given of [7, '7']) {
      for (const env of environments({ keysPerIpPerHour: given })) expect(env).toHaveProperty(ENV.keysPerIpPerHour, '7');
    }
  });

  it('keysPerIpPerHour may go as high as one DynamoDB item holds an address’s hour of attempts', () => {
    const highest = KEY_CREATION_LIMIT.maxPerIpPerHour;
    for (const env of environments({ keysPerIpPerHour: highest })) expect(env).toHaveProperty(ENV.keysPerIpPerHour, String(highest));
  });

  it('throttle limits set the stage’s throttling', () => {
    const { template } = synthesize({ throttleRateLimit: '5', throttleBurstLimit: 9 });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 9 })],
    });
  });

  it('webhookRetryBaseMs becomes the delivery function’s WEBHOOK_RETRY_BASE_MS, as a number or a string', () => {
    for (const given of [5000, '5000']) expect(deliveryEnvironment({ webhookRetryBaseMs: given })).toHaveProperty(ENV.webhookRetryBaseMs, '5000');
  });

  it('webhookRetryBaseMs may go as high as SQS’s visibility limit allows the last retry', () => {
    expect(deliveryEnvironment({ webhookRetryBaseMs: LARGEST_RETRY_BASE_MS })).toHaveProperty(ENV.webhookRetryBaseMs, String(LARGEST_RETRY_BASE_MS));
  });

  it('logLevel becomes every function’s POWERTOOLS_LOG_LEVEL, in any case; INFO without it', () => {
    const levels = (context: Record<string, unknown>): unknown[] => {
      const { template } = synthesize(context);
      const { fanOutId, deliveryId } = pipelineOf(template);
      const ids = [...ROUTES.map((route) => routeFunctionId(template, route)), fanOutId, deliveryId];
      return ids.map((id) => at(resource(template, id).Properties, 'Environment', 'Variables', ENV.logLevel));
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

  it.each([
    ['siteUrl', 'secrets.example.com'],
    ['siteUrl', 'ftp://secrets.example.com'],
    ['keysPerIpPerHour', '0'],
    ['keysPerIpPerHour', '2.5'],
    ['keysPerIpPerHour', KEY_CREATION_LIMIT.maxPerIpPerHour + 1],
    ['throttleRateLimit', 'fast'],
    ['webhookRetryBaseMs', '0'],
    ['webhookRetryBaseMs', '1.5'],
    ['webhookRetryBaseMs', 'soon'],
    ['webhookRetryBaseMs', LARGEST_RETRY_BASE_MS + 1],
    ['alarmEmail', 'ops'],
    ['alarmEmail', 'ops@example'],
    ['alarmEmail', 'Ops <ops@example.com>'],
    ['alarmEmail', 'ops@example.com, dev@example.com'],
    ['alarmEmail', 42],
    ['logLevel', 'verbose'],
    ['logLevel', 3],
  ])('refuses %s=%j', (key, value) => {
    expect(() => synthesize({ [key]: value })).toThrow(key);
  });
});
