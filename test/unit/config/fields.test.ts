import * as z from 'zod/mini';
import { readEnvironment } from '#lambdas/config/environment';
import {
  flagField,
  httpUrlField,
  integerField,
  oneOfField,
  readSettings,
  schemaOf,
  siteUrlField,
  text,
  textField,
  type Field,
} from '#lambdas/config/fields';

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
  // The functions read their environment without zod (readEnvironment); CDK context, local mode and
  // `npm run dlq` read theirs with schemas built from the same fields (schemaOf).
  const fields: Record<string, Field<unknown>> = {
    integer: integerField({ min: 1, max: 10, why: 'it stays small' }),
    flag: flagField(),
    url: httpUrlField(),
    siteUrl: siteUrlField(),
    oneOf: oneOfField(['INFO', 'WARN'], { ignoreCase: true }),
    secret: textField({ secret: true }),
  };
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

  test.each(Object.entries(fields))('%s: the same value or the same words from both', (_, field) => {
    for (const value of given) {
      const env = { X: value };
      const withSchema = outcome(() => readSettings(z.object({ X: schemaOf(field) }), { read: (key) => env[key as 'X'] }).X);
      const withoutSchema = outcome(() => readEnvironment({ X: { field } }, env).X);
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

  test('readEnvironment tells every bad variable at once, and an unset one takes its default', () => {
    const shape = {
      A: { field: flagField() },
      B: { field: integerField({ min: 1 }), unset: { value: 7 } },
      C: { field: textField(), unset: { value: undefined } },
    };
    expect(readEnvironment(shape, { A: '1' })).toEqual({ A: true, B: 7, C: undefined });
    expect(() => readEnvironment(shape, { B: '0' })).toThrow(
      new Error('A is not set: it must be true or false (or 1 or 0)\nB must be a positive integer, got "0"'),
    );
  });
});
