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
  const parsed = ipaddr.process(address);
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv6') {
    const embedded = embeddedIpv4(parsed as ipaddr.IPv6);
    if (embedded && embedded.range() !== 'unicast') return false;
  }
  return true;
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that route to it: IPv4-compatible
 * `::a.b.c.d` (deprecated, yet `::7f00:1` still reaches 127.0.0.1 on some stacks), IPv4-mapped
 * `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` and 6to4 `2002:AABB:CCDD::`. ipaddr.js already
 * judges most of these non-unicast; checking the address inside covers them all the same way.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const fromLow = () => ipaddr.IPv4.parse(`${p[6]! >> 8}.${p[6]! & 255}.${p[7]! >> 8}.${p[7]! & 255}`);
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zeros(0, 5) && (p[5] === 0 || p[5] === 0xffff)) return fromLow();
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return fromLow();
  if (p[0] === 0x2002) return ipaddr.IPv4.parse(`${p[1]! >> 8}.${p[1]! & 255}.${p[2]! >> 8}.${p[2]! & 255}`);
  return undefined;
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
