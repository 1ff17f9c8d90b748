import { WEBHOOK_TOLERANCE_MS, verifyWebhook } from '#client/webhook';
import { SIGNATURE_TOLERANCE_MS, signatureHeader } from '#lambdas/webhooks/signature';

/** Signed by the service's own signer, so that the two sides are checked against each other. */
const SECRET = 'whsec_3Yq8TqkJ5tB2uQ0ZxR7mLwP9aV4sN6cD';
const BODY = '{"event":"secret.viewed","timestamp":1795286979794,"data":{"id":"J8k051Rl3B2N5nxEX7V-gg"}}';
const NOW = 1_795_286_980_000;

test('the tolerance is the spec’s 300,000 ms, as the service’s', () => {
  expect(WEBHOOK_TOLERANCE_MS).toBe(300_000);
  expect(WEBHOOK_TOLERANCE_MS).toBe(SIGNATURE_TOLERANCE_MS);
});

test('accepts a delivery the service signed, as text or bytes', async () => {
  const header = signatureHeader(BODY, SECRET, NOW - 1_000);
  expect(await verifyWebhook(BODY, header, SECRET, { now: NOW })).toBe(true);
  expect(await verifyWebhook(new TextEncoder().encode(BODY), header, SECRET, { now: NOW })).toBe(true);
});

describe('t is in milliseconds (a receiver reading it as seconds fails these)', () => {
  test('a signature 4 minutes old is accepted', async () => {
    expect(await verifyWebhook(BODY, signatureHeader(BODY, SECRET, NOW - 240_000), SECRET, { now: NOW })).toBe(true);
  });

  test('a signature 10 minutes old is refused (as seconds, it would be 1,000 times younger)', async () => {
    expect(await verifyWebhook(BODY, signatureHeader(BODY, SECRET, NOW - 600_000), SECRET, { now: NOW })).toBe(false);
  });

  test('a timestamp written in seconds is refused (as milliseconds, it is 1970)', async () => {
    const header = signatureHeader(BODY, SECRET, Math.floor(NOW / 1000));
    expect(await verifyWebhook(BODY, header, SECRET, { now: NOW })).toBe(false);
  });

  test('the tolerance option is in milliseconds too', async () => {
    const header = signatureHeader(BODY, SECRET, NOW - 2_000);
    expect(await verifyWebhook(BODY, header, SECRET, { now: NOW, toleranceMs: 1_000 })).toBe(false);
    expect(await verifyWebhook(BODY, header, SECRET, { now: NOW, toleranceMs: 3_000 })).toBe(true);
  });
});

describe('refuses', () => {
  const header = signatureHeader(BODY, SECRET, NOW);

  test.each([
    ['a changed body', BODY.replace('viewed', 'expired'), header, SECRET],
    ['another secret', BODY, header, `${SECRET}x`],
    ['an empty secret', BODY, header, ''],
    ['no header', BODY, undefined, SECRET],
    ['a header without v1', BODY, `t=${NOW}`, SECRET],
    ['a header without t', BODY, header.replace(/^t=\d+,/, ''), SECRET],
    ['a repeated t', BODY, `t=${NOW},${header}`, SECRET],
    ['an uppercase signature', BODY, header.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='), SECRET],
  ])('%s', async (_, body, signature, secret) => {
    expect(await verifyWebhook(body, signature, secret, { now: NOW })).toBe(false);
  });

  test('but accepts a header carrying another scheme beside v1', async () => {
    expect(await verifyWebhook(BODY, `${header},v2=abc`, SECRET, { now: NOW })).toBe(true);
  });
});
