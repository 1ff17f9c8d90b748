import { readConfig } from '../../../lambdas/core/config';
import { KEY_CREATION_LIMIT } from '../../../lambdas/definitions/limits';

const SITE = { SITE_URL: 'https://secrets.example.com' };

describe('readConfig: KEYS_PER_IP_PER_HOUR', () => {
  test.each([
    ['unset', {}],
    ['empty', { KEYS_PER_IP_PER_HOUR: '' }],
  ])('%s: the default of 20', (_case, env) => {
    expect(readConfig({ ...SITE, ...env }).keysPerIpPerHour).toBe(KEY_CREATION_LIMIT.defaultPerIpPerHour);
  });

  test('1 and the largest allowed limit are taken as they are', () => {
    expect(readConfig({ ...SITE, KEYS_PER_IP_PER_HOUR: '1' }).keysPerIpPerHour).toBe(1);
    const highest = String(KEY_CREATION_LIMIT.maxPerIpPerHour);
    expect(readConfig({ ...SITE, KEYS_PER_IP_PER_HOUR: highest }).keysPerIpPerHour).toBe(KEY_CREATION_LIMIT.maxPerIpPerHour);
  });

  test.each(['0', '-5', '2.5', 'many', String(KEY_CREATION_LIMIT.maxPerIpPerHour + 1)])(
    '%j is refused, naming the variable and the range',
    (value) => {
      expect(() => readConfig({ ...SITE, KEYS_PER_IP_PER_HOUR: value })).toThrow(
        `KEYS_PER_IP_PER_HOUR must be an integer from 1 to ${KEY_CREATION_LIMIT.maxPerIpPerHour}`,
      );
    },
  );
});
