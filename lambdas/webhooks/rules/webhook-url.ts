import ipaddr from 'ipaddr.js';
import { ERRORS } from '#contract/errors';
import { WEBHOOK_URL_MAX_LENGTH } from '#contract/limits';
import { isSpelledOutUrl } from '#lambdas/rules/spelled-out-url';

/**
 * Checks a webhook URL when a key's owner sets it. Hosts given as IP literals (in any notation
 * the WHATWG URL parser normalises, e.g. 0x7f.1) and localhost names are judged here; names are
 * resolved and checked again at every delivery.
 */

/** On success, `url` is the URL as the WHATWG parser normalises it: what is stored and called. */
export type WebhookUrlVerdict = { ok: true; url: string } | { ok: false; error: string };

const LOOPBACK_NAMES = /^(localhost|.+\.localhost)$/;

/** `localhost` and its subdomains (RFC 6761), in any case, with or without a trailing dot. */
export const isLoopbackName = (hostname: string): boolean => LOOPBACK_NAMES.test(hostname.toLowerCase().replace(/\.$/, ''));

/** The address a URL's hostname (IPv6 in brackets or not) denotes, if it is an IP literal. */
export function hostAddress(hostname: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined;
}

const GLOBAL_UNICAST_IPV6 = ipaddr.parseCIDR('2000::/3');

/**
 * Public unicast only: not loopback, private, link-local, CGNAT, multicast, reserved, ULA...
 * ipaddr.js calls IPv4-compatible IPv6 (::a.b.c.d, deprecated, reserved) "unicast"; only
 * 2000::/3 is global unicast IPv6.
 */
export const isPublicAddress = (address: ipaddr.IPv4 | ipaddr.IPv6): boolean =>
  address.range() === 'unicast' && (address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST_IPV6));

export function checkWebhookUrl(candidate: string, allowLoopback: boolean): WebhookUrlVerdict {
  const invalid = { ok: false, error: ERRORS.webhook } as const;
  if (candidate.length > WEBHOOK_URL_MAX_LENGTH || !isSpelledOutUrl(candidate)) return invalid;
  const url = new URL(candidate);
  if (url.username !== '' || url.password !== '' || url.port === '0' || url.href.length > WEBHOOK_URL_MAX_LENGTH) return invalid;

  const hostname = url.hostname.toLowerCase().replace(/\.$/, '');
  const address = hostAddress(hostname);
  const loopback = isLoopbackName(hostname) || address?.range() === 'loopback';

  if (allowLoopback && loopback && (url.protocol === 'http:' || url.protocol === 'https:')) {
    return { ok: true, url: url.href };
  }
  if (url.protocol !== 'https:' || hostname === '') return invalid;
  if (loopback || (address !== undefined && !isPublicAddress(address))) {
    return { ok: false, error: ERRORS.webhookHostNotPublic };
  }
  return { ok: true, url: url.href };
}
