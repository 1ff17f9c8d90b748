import * as z from 'zod/mini';
import { readSettings, text } from '#lambdas/config/fields';

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
