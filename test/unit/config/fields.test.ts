import * as z from 'zod/mini';
import { readSettingsWhere } from '#lambdas/config/environment';
import { SETTINGS, type SettingRow, settingRows } from '#lambdas/config/settings';
import { httpUrlField, readSettings, schemaOf, text } from '#lambdas/config/fields';

/** What every surface's errors share; each surface's own test covers its fields' words. */

const read = (values: Record<string, unknown>) => ({ read: (key: string) => values[key] });

test('a value that may be a secret is never repeated in its error', () => {
  const schema = z.object({ TOKEN: text({ secret: true }) });
  expect(() => readSettings(schema, read({ TOKEN: { value: 'hunter2' } }))).toThrow(
    new Error('TOKEN must be a string (the value given is not shown: it may be a secret)'),
  );
});

test('a long bad value is cut short', () => {
  const schema = z.object({ NAME: text() });
  expect(() => readSettings(schema, read({ NAME: ['x'.repeat(200)] }))).toThrow(new Error(`NAME must be a string, got ["${'x'.repeat(78)}…`));
});

test('an empty value is unset, and the prefix comes before every name', () => {
  const schema = z.object({ name: text() });
  expect(() => readSettings(schema, { ...read({ name: '' }), prefix: 'context ' })).toThrow(
    new Error('context name is not set: it must be a string'),
  );
});

describe('one rule, two readers', () => {
  // The functions read their environment without zod (readSettingsWhere); CDK context, local mode and
  // `npm run dlq` read theirs with schemas built from the same fields (schemaOf). Every row of the
  // registry that reaches an environment, read both ways.
  const rows = settingRows((row) => row.env !== undefined);
  const given = [
    '',
    '0',
    '1',
    '10',
    '11',
    '1e1',
    ' 1',
    'true',
    'yes',
    'info',
    'WARN',
    'https://example.com',
    'http:example.com',
    'ftp://example.com',
    'https://exa\tmple.com',
    ' https://example.com ',
  ];

  const outcome = (read: () => unknown): unknown => {
    try {
      return { value: read() };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };

  test.each(rows)('%s: the same value or the same words from both', (name, row) => {
    const variable = row.env ?? name;
    const field = schemaOf(row.field);
    const schema = z.object({ [variable]: row.required ? field : z._default(field, row.localDefault ?? row.default) });
    for (const value of given) {
      const env = { [variable]: value };
      const withSchema = outcome(() => readSettings(schema, { read: (key) => env[key] })[variable]);
      const withoutSchema = outcome(() => readSettingsWhere((candidate) => candidate === row, env)[name]);
      expect({ value, outcome: withoutSchema }).toEqual({ value, outcome: withSchema });
    }
  });

  test('a URL must name its scheme with // and hold no white space, which the URL parser would drop', () => {
    for (const bad of [
      'http:example.com',
      'https:/example.com',
      'https:///example.com',
      'https://exa\tmple.com',
      'https://example.com/a b',
      'ftp://example.com',
    ]) {
      expect(httpUrlField().parse(bad)).toBeUndefined();
    }
    expect(httpUrlField().parse(' https://example.com/path ')).toBe('https://example.com/path');
  });

  test('the functions’ reader tells every bad variable at once, and an unset one takes its default', () => {
    const keysCreate = (row: SettingRow<unknown>) => row === SETTINGS.keysPerIpPerHour || row === SETTINGS.webhookAllowLoopback;
    expect(readSettingsWhere(keysCreate, { WEBHOOK_ALLOW_LOOPBACK: '1' })).toEqual({ keysPerIpPerHour: 20, webhookAllowLoopback: true });
    expect(() => readSettingsWhere(keysCreate, { KEYS_PER_IP_PER_HOUR: '0', WEBHOOK_ALLOW_LOOPBACK: 'yes' })).toThrow(
      /^KEYS_PER_IP_PER_HOUR must be an integer from 1 to .*, got "0"\nWEBHOOK_ALLOW_LOOPBACK must be true or false \(or 1 or 0\), got "yes"$/,
    );
  });
});
