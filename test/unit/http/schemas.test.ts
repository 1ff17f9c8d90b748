import type { ZodMiniType } from 'zod/mini';
import { ERROR_MESSAGE_MAX_LENGTH, ERRORS } from '#contract/errors';
import { describeIssue } from '#contract/describe-issue';
import { createKeyBody, createSecretBody, updateKeyBody } from '#contract/schemas';

/** The message a client would get for `body`, or the parsed value when it is valid. */
function outcome<T>(schema: ZodMiniType<T>, body: unknown): { ok: true; value: T } | { ok: false; message: string } {
  const result = schema.safeParse(body);
  return result.success ? { ok: true, value: result.data } : { ok: false, message: describeIssue(result.error) };
}

const data = 'c2VjcmV0';

describe('createSecretBody', () => {
  test('applies the defaults: ttl 1d, views 1, type text', () => {
    expect(outcome(createSecretBody, { data })).toEqual({ ok: true, value: { data, ttl: '1d', views: 1, type: 'text' } });
  });

  test('keeps given values', () => {
    const body = { data, ttl: '7d', views: 5, type: 'file', filename: 'a.pdf', mimetype: 'application/pdf' };
    expect(outcome(createSecretBody, body)).toEqual({ ok: true, value: body });
  });

  test.each(['1h', '6h', '12h', '1d', '7d'])('accepts ttl %s', (ttl) => {
    expect(outcome(createSecretBody, { data, ttl })).toMatchObject({ ok: true, value: { ttl } });
  });

  test.each([1, 2, 3, 4, 5])('accepts views %d', (views) => {
    expect(outcome(createSecretBody, { data, views })).toMatchObject({ ok: true, value: { views } });
  });

  test.each([
    ['views 0', { data, views: 0 }, ERRORS.views],
    ['views 6', { data, views: 6 }, ERRORS.views],
    ['views 2.5', { data, views: 2.5 }, ERRORS.views],
    ['views "2"', { data, views: '2' }, ERRORS.views],
    ['views null', { data, views: null }, ERRORS.views],
    ['ttl "2d"', { data, ttl: '2d' }, ERRORS.ttl],
    ['ttl 3600', { data, ttl: 3600 }, ERRORS.ttl],
    ['type "image"', { data, type: 'image' }, ERRORS.type],
    ['filename ""', { data, type: 'file', filename: '' }, ERRORS.filename],
    ['filename of 256 characters', { data, type: 'file', filename: 'f'.repeat(256) }, ERRORS.filename],
    ['filename not a string', { data, type: 'file', filename: 7 }, ERRORS.filename],
    ['filename with a NUL', { data, type: 'file', filename: 'a\u0000.txt' }, ERRORS.filename],
    ['filename with CR LF', { data, type: 'file', filename: 'a\r\nb.txt' }, ERRORS.filename],
    ['filename with a DEL', { data, type: 'file', filename: 'a\u007f.txt' }, ERRORS.filename],
    ['filename with a C1 control', { data, type: 'file', filename: 'a\u0085.txt' }, ERRORS.filename],
    ['mimetype "text"', { data, type: 'file', mimetype: 'text' }, ERRORS.mimetype],
    ['mimetype "text/"', { data, type: 'file', mimetype: 'text/' }, ERRORS.mimetype],
    ['mimetype of 256 characters', { data, type: 'file', mimetype: `a/${'b'.repeat(254)}` }, ERRORS.mimetype],
    ['filename with type text', { data, type: 'text', filename: 'a.txt' }, ERRORS.fileFieldsNeedFileType('filename')],
    ['filename with the default type', { data, filename: 'a.txt' }, ERRORS.fileFieldsNeedFileType('filename')],
    ['mimetype with type text', { data, mimetype: 'text/plain' }, ERRORS.fileFieldsNeedFileType('mimetype')],
    ['unknown field "view"', { data, view: 2 }, ERRORS.unknownField('view')],
    // The name is the client's text: echoed up to 64 characters, so every message fits the document's maxLength.
    ['an unknown field of 10,000 characters', { data, ['x'.repeat(10_000)]: 1 }, `unknown field: ${'x'.repeat(64)}…`],
    ['missing data', {}, ERRORS.data],
    ['empty data', { data: '' }, ERRORS.data],
    ['data not base64', { data: 'not base64!' }, ERRORS.data],
    ['data base64url', { data: 'c2Vj-_Jl' }, ERRORS.data],
    ['data a number', { data: 1234 }, ERRORS.data],
  ])('rejects %s, naming the field', (_label, body, message) => {
    expect(outcome(createSecretBody, body)).toEqual({ ok: false, message });
  });

  test('the messages name their field', () => {
    expect(ERRORS.views).toMatch(/^views /);
    expect(ERRORS.ttl).toMatch(/^ttl /);
    expect(ERRORS.filename).toMatch(/^filename /);
    expect(ERRORS.fileFieldsNeedFileType('mimetype')).toMatch(/^mimetype /);
    expect(ERRORS.gate).toMatch(/^gate /);
  });

  test('accepts a gate: 43 characters of canonical unpadded base64url', () => {
    const gate = 'UXOJ9El4kqvBfGFk9av3nYXFBHTqhs94EZH74wCB0FU';
    expect(outcome(createSecretBody, { data, gate })).toMatchObject({ ok: true, value: { gate } });
  });

  test.each([
    ['too short', 'A'.repeat(42)],
    ['too long', 'A'.repeat(44)],
    ['padded', `${'A'.repeat(42)}=`],
    ['standard base64', `${'/'.repeat(42)}A`],
    ['bits beyond 32 bytes in its last character', `${'A'.repeat(42)}B`],
    ['a number', 7],
    ['empty', ''],
  ])('rejects a gate %s, naming the field', (_label, gate) => {
    expect(outcome(createSecretBody, { data, gate })).toEqual({ ok: false, message: ERRORS.gate });
  });

  test('accepts a filename with dots, slashes and unicode: clients sanitize names before writing files', () => {
    const body = { data, type: 'file', filename: '../ünïcödé ✓.tar.gz' };
    expect(createSecretBody.safeParse(body).success).toBe(true);
  });

  test('accepts filename of 255 characters and mimetype of 255 characters with type file', () => {
    const body = { data, type: 'file', filename: 'f'.repeat(255), mimetype: `a/${'b'.repeat(253)}` };
    expect(outcome(createSecretBody, body)).toMatchObject({ ok: true });
  });
});

describe('createKeyBody', () => {
  test('accepts an empty object and a webhook string', () => {
    expect(outcome(createKeyBody, {})).toEqual({ ok: true, value: {} });
    expect(outcome(createKeyBody, { webhook: 'https://x.example/' })).toMatchObject({ ok: true });
  });

  test('rejects a non-string webhook and unknown fields', () => {
    expect(outcome(createKeyBody, { webhook: 42 })).toEqual({ ok: false, message: ERRORS.webhook });
    expect(outcome(createKeyBody, { webhooks: 'https://x.example/' })).toEqual({
      ok: false,
      message: ERRORS.unknownField('webhooks'),
    });
  });
});

describe('updateKeyBody', () => {
  test('requires webhook', () => {
    expect(outcome(updateKeyBody, {})).toEqual({ ok: false, message: ERRORS.webhookRequired });
    expect(outcome(updateKeyBody, { webhook: null })).toEqual({ ok: false, message: ERRORS.webhookRequired });
  });

  test('accepts "" (remove) and a URL string', () => {
    expect(outcome(updateKeyBody, { webhook: '' })).toEqual({ ok: true, value: { webhook: '' } });
    expect(outcome(updateKeyBody, { webhook: 'https://x.example/' })).toMatchObject({ ok: true });
  });

  test('rejects unknown fields', () => {
    expect(outcome(updateKeyBody, { webhook: '', url: 'x' })).toEqual({ ok: false, message: ERRORS.unknownField('url') });
  });
});

test('every fixed error message fits the error body maxLength of docs/openapi.json', () => {
  const fixed = (Object.values(ERRORS) as unknown[]).filter((message): message is string => typeof message === 'string');
  expect(fixed.filter((message) => message.length > ERROR_MESSAGE_MAX_LENGTH)).toEqual([]);
  expect(ERRORS.fileFieldsNeedFileType('mimetype').length).toBeLessThanOrEqual(ERROR_MESSAGE_MAX_LENGTH);
});
