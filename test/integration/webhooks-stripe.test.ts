import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import Stripe from 'stripe';
import { WEBHOOK_HEADERS } from '#lambdas/definitions/webhooks';
import { verifyWebhook } from '#client/webhook';
import { signatureHeader } from '#lambdas/webhooks/signature';
import { api, createKey, createSecret } from '../support/api';
import type { LocalServer } from '../support/local-server';
import { serverWithReceiverForThisFile } from './support/server-with-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Someone else's verifiers on our deliveries: Stripe's official Node library checks our
 * `x-svc-signature` scheme (`t=…,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`), and the
 * `standardwebhooks` package the Standard Webhooks headers sent beside it, so a receiver that
 * already uses either can verify ours unchanged. Real deliveries from local mode, not signatures
 * made by the test.
 */

const DELIVERY_WAIT_MS = 15_000;
// Stripe's client needs an API key to be built; webhooks.constructEvent never uses it (no request is made).
const stripe = new Stripe('sk_test_unused');

let server: LocalServer;
let receiver: WebhookReceiver;

serverWithReceiverForThisFile({ keysTable: 'it-stripe-keys', secretsTable: 'it-stripe-secrets' }, (started) => ({ server, receiver } = started));

test('stripe.webhooks.constructEvent verifies real deliveries and refuses a wrong secret', async () => {
  const { key, webhookSecret } = await createKey({ webhook: receiver.url('/stripe') }, server.baseUrl);
  const { id } = await createSecret(key, { data: 'c3RyaXBl', views: 2 }, server.baseUrl);
  await api('GET', `/secrets/${id}`, { key, baseUrl: server.baseUrl });
  await api('GET', `/secrets/${id}`, { key, baseUrl: server.baseUrl });

  const deliveries = await receiver.waitFor('/stripe', 3, DELIVERY_WAIT_MS);
  const events = deliveries.map((delivery) => {
    const signature = String(delivery.headers[WEBHOOK_HEADERS.signature]);
    expect(() => stripe.webhooks.constructEvent(delivery.rawBody, signature, `${webhookSecret}x`)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const tampered = Buffer.concat([delivery.rawBody, Buffer.from(' ')]); // still valid JSON, other bytes
    expect(() => stripe.webhooks.constructEvent(tampered, signature, webhookSecret)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    // What constructEvent returns is the parsed body: our payload, not a Stripe event object.
    return stripe.webhooks.constructEvent(delivery.rawBody, signature, webhookSecret);
  });

  // Deliveries are at least once and in no promised order (each job is its own invocation).
  expect(events).toHaveLength(3);
  expect(events).toEqual(
    expect.arrayContaining([
      { event: 'secret.created', timestamp: expect.any(Number), data: { id } },
      { event: 'secret.viewed', timestamp: expect.any(Number), data: { id } },
      { event: 'secret.expired', timestamp: expect.any(Number), data: { id } },
    ]),
  );
});

test('the standardwebhooks package verifies real deliveries, and refuses a wrong secret and a stale timestamp', async () => {
  const { key, webhookSecret } = await createKey({ webhook: receiver.url('/standard') }, server.baseUrl);
  const { id } = await createSecret(key, { data: 'c3RhbmRhcmQ=' }, server.baseUrl);

  const [delivery] = await receiver.waitFor('/standard', 1, DELIVERY_WAIT_MS);
  const headers = delivery!.headers as Record<string, string>;
  expect(headers['webhook-id']).toBe(headers[WEBHOOK_HEADERS.eventId]);
  expect(new Webhook(webhookSecret).verify(delivery!.body, headers)).toEqual({
    event: 'secret.created',
    timestamp: expect.any(Number),
    data: { id },
  });
  expect(() => new Webhook(`whsec_${'A'.repeat(32)}`).verify(delivery!.body, headers)).toThrow(WebhookVerificationError);
  // Ten minutes later the same delivery is a replay: its timestamp is past the 5-minute tolerance.
  const tenMinutesOn = Date.now() + 600_000;
  jest.spyOn(Date, 'now').mockReturnValue(tenMinutesOn);
  expect(() => new Webhook(webhookSecret).verify(delivery!.body, headers)).toThrow('Message timestamp too old');
  jest.restoreAllMocks();
});

test('the caveat: Stripe reads t as seconds, so it cannot refuse a stale millisecond timestamp; ours does', async () => {
  const secret = 'whsec_caveat_caveat_caveat_caveat_cav';
  const body = JSON.stringify({ event: 'secret.created', timestamp: Date.now(), data: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } });
  const anHourAgo = Date.now() - 3_600_000;
  const stale = signatureHeader(body, secret, anHourAgo);

  expect(await verifyWebhook(body, stale, secret)).toBe(false);
  // A millisecond t looks like a date far in the future in seconds: never "older than" the tolerance.
  expect(stripe.webhooks.constructEvent(body, stale, secret, 300)).toEqual(JSON.parse(body));
});
