import { describe, expect, it } from 'vitest';
import { ipLiteral, isPublicAddress } from './public-address.js';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, metadata, CGNAT, multicast and unspecified ranges', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses every IPv6 form that embeds a non-public IPv4 address', () => {
    for (const address of [
      '::127.0.0.1',
      '::7f00:1',
      '::a00:1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      '2002:a9fe:a9fe::',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('accepts public unicast addresses', () => {
    for (const address of ['8.8.8.8', '200.160.2.3', '2001:4860:4860::8888', '::ffff:8.8.4.4']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('is false for what is not an address', () => {
    expect(isPublicAddress('example.com')).toBe(false);
  });
});

describe('ipLiteral', () => {
  it('finds IP literals in URL hostnames, bracketed IPv6 included', () => {
    expect(ipLiteral('10.0.0.1')).toBe('10.0.0.1');
    expect(ipLiteral('[::1]')).toBe('::1');
    expect(ipLiteral('hooks.example.com')).toBeUndefined();
  });
});
