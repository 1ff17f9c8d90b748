import type { APIGatewayProxyEvent } from 'aws-lambda';
import { timingSafeEqual } from 'node:crypto';
import { SocketAddress, isIP } from 'node:net';
import { EDGE_HEADERS } from '#contract/site';
import { header } from './headers';

/** The address a request came from: the viewer's only beside the distribution's origin secret, else the source. */
export function clientAddress(event: APIGatewayProxyEvent, originSecret: string | undefined): string {
  const sourceIp = event.requestContext.identity.sourceIp;
  if (originSecret === undefined || !sameSecret(header(event, EDGE_HEADERS.originSecret), originSecret)) return sourceIp;
  return viewerAddress(header(event, EDGE_HEADERS.viewerAddress)) ?? sourceIp;
}

/** An IPv4 address written as IPv6 (`::ffff:192.0.2.1`), as Node's SocketAddress prints one. */
const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/;

/** `198.51.100.10:46532`: the address, then the port; Node's own parser, to spare cold starts ipaddr.js. */
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
