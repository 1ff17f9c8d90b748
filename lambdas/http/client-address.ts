import type { APIGatewayProxyEvent } from 'aws-lambda';
import { timingSafeEqual } from 'node:crypto';
import { SocketAddress, isIP } from 'node:net';
import { EDGE_HEADERS } from '#contract/site';
import { header } from './headers';

/**
 * The address a request came from. Through the stack's CloudFront distribution, API Gateway's
 * source address is an edge server's, and the viewer's comes in `cloudfront-viewer-address`; it
 * is believed only beside the distribution's secret origin header, which a direct caller of the
 * API's own URL cannot know. Anything else, or no secret configured (local mode), gets the
 * source address.
 */
export function clientAddress(event: APIGatewayProxyEvent, originSecret: string | undefined): string {
  const sourceIp = event.requestContext.identity.sourceIp;
  if (originSecret === undefined || !sameSecret(header(event, EDGE_HEADERS.originSecret), originSecret)) return sourceIp;
  return viewerAddress(header(event, EDGE_HEADERS.viewerAddress)) ?? sourceIp;
}

/** An IPv4 address written as IPv6 (`::ffff:192.0.2.1`), as Node's SocketAddress prints one. */
const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/;

/**
 * `198.51.100.10:46532`, `2001:db8::1:46532`: the address, then the viewer's port after the last
 * colon. Read with Node's own parser rather than ipaddr.js, which the functions that read it
 * would otherwise load at every cold start for this alone (docs/decisions/cold-start-module-evaluation.md);
 * it prints IPv6 in its one canonical form, and an IPv4-mapped address is taken as the IPv4 it is.
 */
export function viewerAddress(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const address = value.slice(0, Math.max(0, value.lastIndexOf(':')));
  const family = isIP(address);
  if (family === 0) return undefined;
  const canonical = new SocketAddress({ address, family: family === 4 ? 'ipv4' : 'ipv6' }).address;
  return IPV4_MAPPED.exec(canonical)?.[1] ?? canonical;
}

/** Compared in constant time: the comparison must not tell a guesser how much of the secret it got right. */
function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
