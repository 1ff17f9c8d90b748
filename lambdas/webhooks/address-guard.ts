import { isIP, type LookupFunction } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { hostAddress, isLoopbackName, isPublicAddress } from './rules/webhook-url';

/**
 * Where a delivery may connect. The URL is judged before any socket exists; a name is judged by
 * the addresses it resolves to at connection time, inside the lookup Node calls, so the socket
 * connects to exactly the addresses that were checked (no second resolution to rebind).
 */

/** Whether an address, as a URL or a resolver writes it, may be connected to. */
type AddressRule = (address: string) => boolean;

export type Target = { ok: true; url: URL; allowed: AddressRule } | { ok: false; reason: string };

export const ADDRESS_NOT_ALLOWED = 'address not allowed';

/** Raised inside the lookup, so that Node fails the request before it connects anywhere. */
export class AddressNotAllowedError extends Error {
  constructor() {
    super(ADDRESS_NOT_ALLOWED);
    this.name = 'AddressNotAllowedError';
  }
}

const isLoopback = (address: string): boolean => hostAddress(address)?.range() === 'loopback';

function isPublic(address: string): boolean {
  const parsed = hostAddress(address);
  return parsed !== undefined && isPublicAddress(parsed);
}

/** Plain http is only for local development, and then only to this machine. */
function ruleFor(protocol: 'http:' | 'https:', allowLoopback: boolean): AddressRule {
  if (protocol === 'http:') return isLoopback;
  return allowLoopback ? (address) => isPublic(address) || isLoopback(address) : isPublic;
}

export function checkTarget(rawUrl: string, allowLoopback: boolean): Target {
  if (!URL.canParse(rawUrl)) return { ok: false, reason: 'invalid URL' };
  const url = new URL(rawUrl);
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'user-info not allowed' };
  const protocol = url.protocol === 'https:' || (allowLoopback && url.protocol === 'http:') ? url.protocol : undefined;
  if (protocol === undefined) return { ok: false, reason: 'scheme not allowed' };

  // The WHATWG parser has already turned notations such as 0x7f.1 into dotted quads.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isLoopbackName(host) && !allowLoopback) return { ok: false, reason: ADDRESS_NOT_ALLOWED };
  const allowed = ruleFor(protocol, allowLoopback);
  // Node connects to an IP literal without calling lookup, so it is judged here.
  const literal = isIP(host) !== 0 || hostAddress(host) !== undefined;
  if (literal && !allowed(host)) return { ok: false, reason: ADDRESS_NOT_ALLOWED };
  return { ok: true, url, allowed };
}

/**
 * A lookup for Node's request options: resolves every address of the name with `resolve`,
 * refuses them all if any one is not allowed (a name that also points inward is not a receiver),
 * and otherwise answers in the form Node asked for (one address, or all of them).
 */
export function checkingLookup(resolve: LookupFunction, allowed: AddressRule): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, resolved, family) => {
      if (error !== null) {
        callback(error, []);
        return;
      }
      const addresses: LookupAddress[] = typeof resolved === 'string' ? [{ address: resolved, family: family ?? isIP(resolved) }] : resolved;
      const [first] = addresses;
      if (first === undefined || !addresses.every(({ address }) => allowed(address))) {
        callback(new AddressNotAllowedError(), []);
      } else if (options.all === true) {
        callback(null, addresses);
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}
