import { Match } from 'aws-cdk-lib/assertions';
import { ENV } from '../../lambdas/definitions/env';
import { ROUTES } from '../../lambdas/definitions/routes';
import { synthesize } from './support/synth';
import { at, resourcesOfType } from './support/template';

const environments = (context: Record<string, unknown>): unknown[] =>
  resourcesOfType(synthesize(context).template, 'AWS::Lambda::Function').map(([, fn]) => at(fn.Properties, 'Environment', 'Variables'));

describe('context', () => {
  it('siteUrl becomes every function’s SITE_URL', () => {
    const siteUrl = 'https://secrets.example.com/s';
    const variables = environments({ siteUrl });
    expect(variables).toHaveLength(ROUTES.length);
    for (const env of variables) expect(env).toHaveProperty(ENV.siteUrl, siteUrl);
  });

  it('keysPerIpPerHour becomes KEYS_PER_IP_PER_HOUR, whether given as a number (cdk.json) or a string (-c)', () => {
    for (const given of [7, '7']) {
      for (const env of environments({ keysPerIpPerHour: given })) expect(env).toHaveProperty(ENV.keysPerIpPerHour, '7');
    }
  });

  it('throttle limits set the stage’s throttling', () => {
    const { template } = synthesize({ throttleRateLimit: '5', throttleBurstLimit: 9 });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 9 })],
    });
  });

  it.each([
    ['siteUrl', 'secrets.example.com'],
    ['siteUrl', 'ftp://secrets.example.com'],
    ['keysPerIpPerHour', '0'],
    ['keysPerIpPerHour', '2.5'],
    ['throttleRateLimit', 'fast'],
  ])('refuses %s=%j', (key, value) => {
    expect(() => synthesize({ [key]: value })).toThrow(key);
  });
});
