import { readFunctionSettings, readSetting } from '#lambdas/config/environment';
import { DEFAULT_GROUPS_CLAIM } from '#contract/create-access';
import { GATE, KEY_CREATION_LIMIT, STORED_BYTES_LIMIT } from '#contract/limits';
import { MAX_RETRY_BASE_MS, WEBHOOK_RETRY_BASE_MS } from '#lambdas/definitions/webhooks';

/** The functions' environment: what the stack sets on AWS and `npm start` sets locally, each function reading its own. */

const DEFAULT_STORED_BYTES = {
  storedMiBPerKeyPerDay: STORED_BYTES_LIMIT.defaultMiBPerKeyPerDay,
  storedMiBPerAddressPerDay: STORED_BYTES_LIMIT.defaultMiBPerAddressPerDay,
};
const SITE = { SITE_URL: 'https://secrets.example.com' };
const KEYS_RANGE = `an integer from 1 to ${KEY_CREATION_LIMIT.maxPerIpPerHour} (so that an address's hour of attempts fits one DynamoDB item)`;
const RETRY_RANGE = `an integer from 1 to ${MAX_RETRY_BASE_MS} (so that the last retry's wait fits SQS's 12-hour visibility limit)`;

const keysCreate = (env: Record<string, string>) => readFunctionSettings('keys-create', env);
const secretsCreate = (env: Record<string, string>) => readFunctionSettings('secrets-create', env);
const delivery = (env: Record<string, string>) => readFunctionSettings('delivery', env);

describe('route functions', () => {
  test('defaults: 20 keys per address and hour, no loopback webhooks, no origin secret', () => {
    expect(keysCreate({})).toEqual({
      keysPerIpPerHour: KEY_CREATION_LIMIT.defaultPerIpPerHour,
      webhookAllowLoopback: false,
      originSecret: undefined,
      createAccess: 'open',
      oidcIssuer: undefined,
      oidcAudience: undefined,
      oidcJwksUri: undefined,
      oidcAllowedDomains: undefined,
      oidcAllowedGroups: undefined,
      oidcGroupsClaim: DEFAULT_GROUPS_CLAIM,
      oidcAnyAccount: false,
    });
    expect(secretsCreate(SITE)).toEqual({
      siteUrl: 'https://secrets.example.com',
      originSecret: undefined,
      passphraseAttempts: GATE.attempts,
      ...DEFAULT_STORED_BYTES,
    });
    expect(keysCreate({ KEYS_PER_IP_PER_HOUR: '', WEBHOOK_ALLOW_LOOPBACK: '', ORIGIN_SECRET: '' })).toEqual(keysCreate({}));
  });

  test('each reads only the settings whose rows name it', () => {
    expect(Object.keys(readFunctionSettings('keys-update', {}))).toEqual(['webhookAllowLoopback']);
    expect(readFunctionSettings('health', {})).toEqual({});
  });

  test('takes each value as set; SITE_URL loses its trailing slashes', () => {
    const highest = String(KEY_CREATION_LIMIT.maxPerIpPerHour);
    expect(keysCreate({ KEYS_PER_IP_PER_HOUR: highest, WEBHOOK_ALLOW_LOOPBACK: '1', ORIGIN_SECRET: 's3cr3t' })).toMatchObject({
      keysPerIpPerHour: KEY_CREATION_LIMIT.maxPerIpPerHour,
      webhookAllowLoopback: true,
      originSecret: 's3cr3t',
    });
    expect(keysCreate({ KEYS_PER_IP_PER_HOUR: '1' }).keysPerIpPerHour).toBe(1);
    expect(secretsCreate({ SITE_URL: 'http://localhost:3000//' }).siteUrl).toBe('http://localhost:3000');
  });

  test.each<[Record<string, string>, string]>([
    [{}, 'SITE_URL is not set: it must be an absolute http(s) URL of at most 2048 characters'],
    [{ SITE_URL: 'secrets.example.com' }, 'SITE_URL must be an absolute http(s) URL of at most 2048 characters, got "secrets.example.com"'],
  ])('%j is refused: %s', (env, message) => {
    expect(() => secretsCreate(env)).toThrow(new Error(message));
  });

  test.each<[Record<string, string>, string]>([
    [{ KEYS_PER_IP_PER_HOUR: '0' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "0"`],
    [{ KEYS_PER_IP_PER_HOUR: '-5' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "-5"`],
    [{ KEYS_PER_IP_PER_HOUR: '2.5' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "2.5"`],
    [{ KEYS_PER_IP_PER_HOUR: 'many' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "many"`],
    [{ KEYS_PER_IP_PER_HOUR: '10001' }, `KEYS_PER_IP_PER_HOUR must be ${KEYS_RANGE}, got "10001"`],
    [{ WEBHOOK_ALLOW_LOOPBACK: 'yes' }, 'WEBHOOK_ALLOW_LOOPBACK must be true or false (or 1 or 0), got "yes"'],
  ])('%j is refused: %s', (env, message) => {
    expect(() => keysCreate(env)).toThrow(new Error(message));
  });

  test('readSetting reads one row where it is used: its default, the value set, or an error naming the variable', () => {
    expect(readSetting('passphraseAttempts', {})).toBe(GATE.attempts);
    expect(readSetting('passphraseAttempts', { PASSPHRASE_ATTEMPTS: '3', SITE_URL: 'not a URL' })).toBe(3);
    expect(() => readSetting('passphraseAttempts', { PASSPHRASE_ATTEMPTS: '0' })).toThrow(
      new Error('PASSPHRASE_ATTEMPTS must be an integer from 1 to 100, got "0"'),
    );
  });

  test('a SITE_URL over 2048 characters is refused: links are SITE_URL/<id>, and docs/openapi.json bounds their length', () => {
    const long = `https://example.com/${'a'.repeat(2029)}`;
    expect(() => secretsCreate({ SITE_URL: long.slice(0, -1) })).not.toThrow();
    expect(() => secretsCreate({ SITE_URL: long })).toThrow(
      /^SITE_URL must be an absolute http\(s\) URL of at most 2048 characters, got "https:\/\/example\.com\/a+…$/,
    );
  });
});

describe('webhook delivery', () => {
  test('needs no SITE_URL; the first retry comes after 1000 ms unless set', () => {
    expect(delivery({})).toEqual({ webhookAllowLoopback: false, webhookRetryBaseMs: WEBHOOK_RETRY_BASE_MS.local });
    expect(delivery({ WEBHOOK_RETRY_BASE_MS: '' }).webhookRetryBaseMs).toBe(WEBHOOK_RETRY_BASE_MS.local);
  });

  test('takes any base from 1 ms to the largest whose last retry fits SQS’s 12-hour visibility limit', () => {
    for (const base of [1, 60_000, MAX_RETRY_BASE_MS]) expect(delivery({ WEBHOOK_RETRY_BASE_MS: String(base) }).webhookRetryBaseMs).toBe(base);
  });

  test.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
  ])('WEBHOOK_ALLOW_LOOPBACK=%s: %s', (value, allowed) => {
    expect(delivery({ WEBHOOK_ALLOW_LOOPBACK: value }).webhookAllowLoopback).toBe(allowed);
  });

  test.each(['0', '-1000', '1.5', 'ten', '1000ms', ' ', ' 1000', '1e3', '0x3e8', String(MAX_RETRY_BASE_MS + 1)])(
    'WEBHOOK_RETRY_BASE_MS=%j is refused, naming the variable and the range',
    (value) => {
      expect(() => delivery({ WEBHOOK_RETRY_BASE_MS: value })).toThrow(
        new Error(`WEBHOOK_RETRY_BASE_MS must be ${RETRY_RANGE}, got ${JSON.stringify(value)}`),
      );
    },
  );

  test.each(['yes', 'on', ' 1', '01', 'TRUE'])('WEBHOOK_ALLOW_LOOPBACK=%j is refused rather than read as off', (value) => {
    expect(() => delivery({ WEBHOOK_ALLOW_LOOPBACK: value })).toThrow(
      new Error(`WEBHOOK_ALLOW_LOOPBACK must be true or false (or 1 or 0), got ${JSON.stringify(value)}`),
    );
  });
});
