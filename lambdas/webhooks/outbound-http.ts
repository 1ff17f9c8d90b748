import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkTarget, checkingLookup } from './address-guard';
import { outcomeOfError, outcomeOfStatus, timedOut, type DeliveryOutcome } from './delivery-outcome';

export type { DeliveryOutcome } from './delivery-outcome';

export type WebhookRequest = { url: string; body: string; headers: Readonly<Record<string, string>> };

export type PostWebhookOptions = {
  /** Local mode and tests only: lets http:// and https:// reach this machine. */
  allowLoopback: boolean;
  /** For the whole attempt: DNS, connect, TLS, sending, the status line and the body. */
  timeoutMs: number;
  /** Reading stops once this much of the body has arrived; the last socket read may overshoot it. */
  maxResponseBytes: number;
  /** Resolves names; called with `all: true`. Defaults to dns.lookup. */
  lookup?: LookupFunction;
};

/**
 * One SSRF-safe POST. The status line decides the outcome: a 2xx that arrives within timeoutMs
 * is a success even if the body after it is slow, because the receiver has answered and a retry
 * would deliver the event twice. The body is then read (and discarded) until it ends, reaches
 * maxResponseBytes or the attempt's time runs out, and the connection is closed before the
 * promise settles, so nothing is left running when a Lambda invocation returns.
 */
export async function postWebhook(request: WebhookRequest, options: PostWebhookOptions): Promise<DeliveryOutcome> {
  const target = checkTarget(request.url, options.allowLoopback);
  if (!target.ok) return { ok: false, reason: target.reason };

  return new Promise((resolve) => {
    const client = target.url.protocol === 'https:' ? https : http;
    const outgoing = client.request(target.url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      // A fresh agent per attempt: no pooled connection to an address checked for another delivery.
      agent: false,
      lookup: checkingLookup(options.lookup ?? dnsLookup, target.allowed),
    });

    let answered: DeliveryOutcome | undefined;
    const finish = (otherwise: DeliveryOutcome): void => {
      clearTimeout(timer);
      outgoing.destroy();
      resolve(answered ?? otherwise);
    };
    const timer = setTimeout(() => finish(timedOut(options.timeoutMs)), options.timeoutMs);

    outgoing.on('error', (error) => finish(outcomeOfError(error)));
    outgoing.on('response', (response) => {
      const outcome = outcomeOfStatus(response.statusCode ?? 0, response.headers['retry-after']);
      answered = outcome;
      let room = options.maxResponseBytes;
      response.on('data', (chunk: Buffer) => {
        room -= chunk.length;
        if (room <= 0) finish(outcome);
      });
      // After the end of the body, or a connection cut mid-body: the status already counts.
      response.on('close', () => finish(outcome));
    });
    outgoing.end(request.body);
  });
}
