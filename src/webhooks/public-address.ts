import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is a public unicast address: not loopback, private (RFC 1918, unique
 * local), link-local (which holds the cloud metadata address 169.254.169.254), carrier-grade NAT,
 * multicast, reserved or unspecified. IPv4-mapped IPv6 addresses are judged as the IPv4 inside.
 * Classification by `ipaddr.js` (its table of IANA special-purpose ranges).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The address inside a URL hostname when it is an IP literal (`[::1]` unwrapped). */
export function ipLiteral(hostname: string): string | undefined {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(host) ? host : undefined;
}

/** Thrown (and recorded on the delivery attempt) when a webhook host is not on the public internet. */
export class NonPublicAddressError extends Error {
  constructor(host: string, address: string) {
    super(
      `webhook host ${host} resolves to ${address}, which is not a public address (loopback, private, link-local and metadata ranges are refused on a hosted sandbox)`,
    );
    this.name = 'NonPublicAddressError';
  }
}

/**
 * A DNS lookup for outgoing webhook connections that refuses names resolving to a non-public
 * address. Checked at connect time, so a name that changes its answer after registration (DNS
 * rebinding) still cannot reach an internal address.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new NonPublicAddressError(hostname, refused.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
};
