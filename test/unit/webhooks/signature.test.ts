import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { WEBHOOK_TOLERANCE_MS, verifyWebhook } from '#client/webhook';
import { signatureHeader } from '#lambdas/webhooks/signature';

/** The service signs (lambdas/webhooks/signature.ts), the client library verifies: each checked against the other. */
const SECRET = 'whsec_2b8f0c1d4e5a6b7c8d9e0f1a2b3c4d5e';
const BODY = '{"type":"secret.viewed","secretId":"abc123"}';
/** Some instant in 2025, in milliseconds. */
const NOW = 1_750_000_000_123;

/** The signature a receiver computes by hand from the contract, independent of both modules. */
const v1 = (t: string | number, body: string | Uint8Array, secret = SECRET): string =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.`).update(body).digest('hex');

describe('signatureHeader', () => {
  test('is t=<ms>,v1=<HMAC-SHA256 of "<t>.<body>" keyed with the whole secret>', () => {
    expect(signatureHeader(BODY, SECRET, NOW)).toBe(`t=${NOW},v1=${v1(NOW, BODY)}`);
  });

  test.each([-1, 1.5, Number.NaN, 2 ** 53])('refuses the timestamp %p', (t) => {
    expect(() => signatureHeader(BODY, SECRET, t)).toThrow(RangeError);
  });

  test('refuses an empty secret', () => {
    expect(() => signatureHeader(BODY, '', NOW)).toThrow(RangeError);
  });
});

test('the tolerance is the spec’s 300,000 ms', () => {
  expect(WEBHOOK_TOLERANCE_MS).toBe(300_000);
});

describe('verifyWebhook, on what the service signed', () => {
  const header = signatureHeader(BODY, SECRET, NOW);

  test('accepts what signatureHeader produced', async () => {
    expect(await verifyWebhook(BODY, header, SECRET, { now: NOW })).toBe(true);
  });

  test('uses the current time when no `now` is given', async () => {
    expect(await verifyWebhook(BODY, signatureHeader(BODY, SECRET, Date.now()), SECRET)).toBe(true);
    expect(await verifyWebhook(BODY, header, SECRET)).toBe(false);
  });

  test('rejects a tampered body', async () => {
    expect(await verifyWebhook(BODY.replace('viewed', 'revoked'), header, SECRET, { now: NOW })).toBe(false);
  });

  test('rejects the wrong secret, and an empty one even when the HMAC matches it', async () => {
    expect(await verifyWebhook(BODY, header, `${SECRET}x`, { now: NOW })).toBe(false);
    expect(await verifyWebhook(BODY, `t=${NOW},v1=${v1(NOW, BODY, '')}`, '', { now: NOW })).toBe(false);
  });

  test('rejects a timestamp changed after signing', async () => {
    const moved = header.replace(`t=${NOW}`, `t=${NOW + 1}`);
    expect(await verifyWebhook(BODY, moved, SECRET, { now: NOW })).toBe(false);
  });

  const good = v1(NOW, BODY);
  test.each([
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['missing t', `v1=${good}`],
    ['missing v1', `t=${NOW}`],
    ['empty t', `t=,v1=${good}`],
    ['non-digit t', `t=${NOW}a,v1=${good}`],
    ['negative t', `t=-${NOW},v1=${good}`],
    ['fractional t', `t=${NOW}.0,v1=${good}`],
    ['t with a space', `t= ${NOW},v1=${good}`],
    ['repeated t', `t=${NOW},t=${NOW},v1=${good}`],
    ['non-hex v1', `t=${NOW},v1=${good.slice(0, 63)}g`],
    ['short v1', `t=${NOW},v1=${good.slice(0, 62)}`],
    ['long v1', `t=${NOW},v1=${good}00`],
    ['a part without "="', `t=${NOW},v1=${good},garbage`],
    ['a part with an empty key', `t=${NOW},=x,v1=${good}`],
    ['a space after the comma', `t=${NOW}, v1=${good}`],
    ['an uppercase v1', `t=${NOW},v1=${good.toUpperCase()}`],
  ])('rejects a malformed header: %s', async (_label, malformed) => {
    expect(await verifyWebhook(BODY, malformed, SECRET, { now: NOW })).toBe(false);
  });

  test('ignores unknown schemes and accepts when any v1 matches', async () => {
    const other = v1(NOW, BODY, 'whsec_old');
    expect(await verifyWebhook(BODY, `t=${NOW},v0=whatever,v1=${other},v1=${good}`, SECRET, { now: NOW })).toBe(true);
    expect(await verifyWebhook(BODY, `t=${NOW},v0=${good},v1=${other}`, SECRET, { now: NOW })).toBe(false);
  });

  describe('tolerance: 5 minutes either way', () => {
    test.each([
      ['exactly 300000 ms old', -300_000, true],
      ['300001 ms old', -300_001, false],
      ['exactly 300000 ms in the future', 300_000, true],
      ['300001 ms in the future', 300_001, false],
    ])('%s', async (_label, offset, accepted) => {
      const signed = signatureHeader(BODY, SECRET, NOW + offset);
      expect(await verifyWebhook(BODY, signed, SECRET, { now: NOW })).toBe(accepted);
    });

    test('can be narrowed', async () => {
      const signed = signatureHeader(BODY, SECRET, NOW - 1_001);
      expect(await verifyWebhook(BODY, signed, SECRET, { now: NOW, toleranceMs: 1_000 })).toBe(false);
      expect(await verifyWebhook(BODY, signed, SECRET, { now: NOW, toleranceMs: 1_001 })).toBe(true);
    });

    test('a tolerance or clock that is not a number rejects rather than accepts', async () => {
      expect(await verifyWebhook(BODY, header, SECRET, { now: NOW, toleranceMs: Number.NaN })).toBe(false);
      expect(await verifyWebhook(BODY, header, SECRET, { now: Number.NaN })).toBe(false);
    });
  });

  describe('the seconds trap: t is in milliseconds', () => {
    test('a correctly signed header whose t is in seconds is rejected', async () => {
      const seconds = Math.floor(NOW / 1000);
      const signed = signatureHeader(BODY, SECRET, seconds);
      expect(signed).toBe(`t=${seconds},v1=${v1(seconds, BODY)}`);
      expect(await verifyWebhook(BODY, signed, SECRET, { now: NOW })).toBe(false);
    });

    test('a signature an hour old is rejected, which a seconds-based check would have accepted', async () => {
      const hourAgo = NOW - 3_600_000;
      const signed = signatureHeader(BODY, SECRET, hourAgo);
      // The HMAC is genuine: only its age rejects it.
      expect(await verifyWebhook(BODY, signed, SECRET, { now: hourAgo })).toBe(true);
      expect(await verifyWebhook(BODY, signed, SECRET, { now: NOW })).toBe(false);

      // Stripe-style: reject when now (in seconds) - t > 300. A millisecond t makes that negative.
      const secondsBasedCheckAccepts = (t: number, nowMs: number): boolean => nowMs / 1000 - t <= 300;
      expect(secondsBasedCheckAccepts(hourAgo, NOW)).toBe(true);
    });
  });

  describe('raw bytes', () => {
    test('a Uint8Array body with non-ASCII characters verifies against the string it encodes', async () => {
      const body = '{"note":"grüße, 秘密 ✓ 🔐"}';
      const signed = signatureHeader(body, SECRET, NOW);
      expect(await verifyWebhook(new TextEncoder().encode(body), signed, SECRET, { now: NOW })).toBe(true);
    });

    test('bytes are hashed as received, not decoded and re-encoded', async () => {
      // Not valid UTF-8: decoding would turn these into U+FFFD and change the HMAC.
      const bytes = Uint8Array.from([0x7b, 0xff, 0xfe, 0x80, 0x7d]);
      const signed = `t=${NOW},v1=${v1(NOW, bytes)}`;
      expect(await verifyWebhook(bytes, signed, SECRET, { now: NOW })).toBe(true);
      expect(await verifyWebhook(new TextDecoder().decode(bytes), signed, SECRET, { now: NOW })).toBe(false);
    });

    test('a view into a larger buffer hashes only its own bytes', async () => {
      const signed = signatureHeader(BODY, SECRET, NOW);
      const framed = new TextEncoder().encode(`xx${BODY}yy`);
      expect(await verifyWebhook(framed.subarray(2, framed.length - 2), signed, SECRET, { now: NOW })).toBe(true);
    });
  });

  describe('properties', () => {
    const body = fc.string({ unit: 'binary', minLength: 1 });
    const secret = fc.string({ unit: 'binary', minLength: 1 });
    const timestamp = fc.integer({ min: 0, max: 4_102_444_800_000 });

    test('whatever the body and secret, a fresh signature verifies', async () => {
      await fc.assert(
        fc.asyncProperty(body, secret, timestamp, async (b, s, t) => {
          expect(await verifyWebhook(b, signatureHeader(b, s, t), s, { now: t })).toBe(true);
        }),
      );
    });

    test('changing any single byte of the body breaks it', async () => {
      await fc.assert(
        fc.asyncProperty(body, secret, timestamp, fc.nat(), fc.integer({ min: 1, max: 255 }), async (b, s, t, at, flip) => {
          const bytes = new TextEncoder().encode(b);
          const index = at % bytes.length;
          bytes[index] = (bytes[index] ?? 0) ^ flip;
          expect(await verifyWebhook(bytes, signatureHeader(b, s, t), s, { now: t })).toBe(false);
        }),
      );
    });
  });
});
