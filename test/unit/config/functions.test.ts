import { readConfig, readDeliveryConfig } from '#lambdas/config/functions';
import { KEY_CREATION_LIMIT, STORED_BYTES_LIMIT } from '#contract/limits';
import { MAX_RETRY_BASE_MS, WEBHOOK_RETRY_BASE_MS } from '#lambdas/definitions/webhooks';

/** The functions' environment: what the stack sets on AWS and `npm start` sets locally. */

const DEFAULT_STORED_BYTES = {
  perKeyPerDayMiB: STORED_BYTES_LIMIT.defaultMiBPerKeyPerDay,
  perAddressPerDayMiB: STORED_BYTES_LIMIT.defaultMiBPerAddressPerDay,
};
const SITE = { SITE_URL: 'https://secrets.example.com' };
const KEYS_RANGE = `an integer from 1 to ${KEY_CREATION_LIMIT.maxPerIpPerHour} (so that an address's hour of attempts fits one DynamoDB item)`;
const RETRY_RANGE = `an integer from 1 to ${MAX_RETRY_BASE_MS} (so that the last retry's wait fits SQS's 12-hour visibility limit)`;

describe('route functions (readConfig)', () => {
  test('defaults: 20 keys per address and hour, no loopback webhooks, no origin secret', () => {
    expect(readConfig(SITE)).toEqual({
      siteUrl: 'https://secrets.example.com',
      keysPerIpPerHour: KEY_CREATION_LIMIT.defaultPerIpPerHour,
      webhookAllowLoopback: false,
      originSecret: undefined,
      storedBytes: DEFAULT_STORED_BYTES,
    });
    expect(readConfig({ ...SITE, KEYS_PER_IP_PER_HOUR: '', WEBHOOK_ALLOW_LOOPBACK: '', ORIGIN_SECRET: '' })).toEqual(readConfig(SITE));
  });

  test('takes each value as set; SITE_URL loses its trailing slashes', () => {
    const highest = String(KEY_CREATION_LIMIT.maxPerIpPerHour);
    expect(
      readConfig({ SITE_URL: 'http://localhost:3000//', KEYS_PER_IP_PER_HOUR: highest, WEBHOOK_ALLOW_LOOPBACK: '1', ORIGIN_SECRET: 's3cr3t' }),
    ).toEqual({
      siteUrl: 'http://localhost:3000',
      keysPerIpPerHour: KEY_CREATION_LIMIT.maxPerIpPerHour,
      webhookAllowLoopback: true,
      storedBytes: DEFAULT_STORED_BYTES,
      originSecret: 's3cr3t',
    });
    expect(readConfig({ ...SITE, KEYS_PER_IP_PER_HOUR: '1' }).keysPerIpPerHour).toBe(1);
  });

  test.each<[Record<string, string>, string]>([
    [{}, 'SITE_URL is not set: it must be an absolute http(s) URL of at most 2048 characters'],
    [{ SITE_URL: 'secrets.example.com' }, 'SITE_URL must be an absolute http(s) URL of at most 2048 characters, got "secrets.example.com"'],
    [{ ...SITE, KEYS_PER_IP_PER_HOUR: '0' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "0"`],
    [{ ...SITE, KEYS_PER_IP_PER_HOUR: '-5' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "-5"`],
    [{ ...SITE, KEYS_PER_IP_PER_HOUR: '2.5' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "2.5"`],
    [{ ...SITE, KEYS_PER_IP_PER_HOUR: 'many' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "many"`],
    [{ ...SITE, KEYS_PER_IP_PER_HOUR: '10001' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "10001"`],
    [{ ...SITE, WEBHOOK_ALLOW_LOOPBACK: 'yes' }, 'WEBHOOK_ALLOW_LOOPBACK must be true or false (or 1 or 0), got "yes"'],
  ])('%j is refused: %s', (env, message) => {
    expect(() => readConfig(env)).toThrow(new Error(message));
  });

  test('a SITE_URL over 2048 characters is refused: links are SITE_URL/<id>, and docs/openapi.json bounds their length', () => {
    const long = `https://example.com/${'a'.repeat(2029)}`;
    expect(() => readConfig({ SITE_URL: long.slice(0, -1) })).not.toThrow();
    expect(() => readConfig({ SITE_URL: long })).toThrow(
      /^SITE_URL must be an absolute http\(s\) URL of at most 2048 characters, got "https:\/\/example\.com\/a+…$/,
    );
  });
});

describe('webhook delivery (readDeliveryConfig)', () => {
  test('needs no SITE_URL; the first retry comes after 1000 ms unless set', () => {
    expect(readDeliveryConfig({})).toEqual({ webhookAllowLoopback: false, retryBaseMs: WEBHOOK_RETRY_BASE_MS.local });
    expect(readDeliveryConfig({ WEBHOOK_RETRY_BASE_MS: '' }).retryBaseMs).toBe(WEBHOOK_RETRY_BASE_MS.local);
  });

  test('takes any base from 1 ms to the largest whose last retry fits SQS’s 12-hour visibility limit', () => {
    for (const base of [1, 60_000, MAX_RETRY_BASE_MS]) expect(readDeliveryConfig({ WEBHOOK_RETRY_BASE_MS: String(base) }).retryBaseMs).toBe(base);
  });

  test.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
  ])('WEBHOOK_ALLOW_LOOPBACK=%s: %s', (value, allowed) => {
    expect(readDeliveryConfig({ WEBHOOK_ALLOW_LOOPBACK: value }).webhookAllowLoopback).toBe(allowed);
  });

  test.each(['0', '-1000', '1.5', 'ten', '1000ms', ' ', ' 1000', '1e3', '0x3e8', String(MAX_RETRY_BASE_MS + 1)])(
    'WEBHOOK_RETRY_BASE_MS=%j is refused, naming the variable and the range',
    (value) => {
      expect(() => readDeliveryConfig({ WEBHOOK_RETRY_BASE_MS: value })).toThrow(
        new Error(`WEBHOOK_RETRY_BASE_MS must be ${RETRY_RANGE}, got ${JSON.stringify(value)}`),
      );
    },
  );

  test.each(['yes', 'on', ' 1', '01', 'TRUE'])('WEBHOOK_ALLOW_LOOPBACK=%j is refused rather than read as off', (value) => {
    expect(() => readDeliveryConfig({ WEBHOOK_ALLOW_LOOPBACK: value })).toThrow(
      new Error(`WEBHOOK_ALLOW_LOOPBACK must be true or false (or 1 or 0), got ${JSON.stringify(value)}`),
    );
  });
});
