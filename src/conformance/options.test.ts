import { describe, expect, it } from 'vitest';
import { credential, listenOption, parseDuration, parseTarget, patterns, UsageProblem } from './options.js';
import { selectChecks } from './runner.js';
import type { Check } from './types.js';

describe('the conformance command line', () => {
  it('reads durations and refuses what is not one', () => {
    expect(parseDuration('30s', '--timeout')).toBe(30_000);
    expect(parseDuration('2m', '--timeout')).toBe(120_000);
    expect(parseDuration('500ms', '--timeout')).toBe(500);
    expect(parseDuration('45', '--timeout')).toBe(45_000);
    for (const bad of ['soon', '', '-1s', '1d', '10h', '50ms', '1e3', '3\u0000s']) {
      expect(() => parseDuration(bad, '--timeout'), bad).toThrow(UsageProblem);
    }
  });

  it('takes a base URL ending in /v3 and says how to fix one that does not', () => {
    expect(parseTarget('http://127.0.0.1:8080/v3/', '--target')).toBe('http://127.0.0.1:8080/v3');
    expect(() => parseTarget('http://127.0.0.1:8080', '--target')).toThrow('e.g. http://127.0.0.1:8080/v3');
    expect(() => parseTarget(undefined, '--target')).toThrow('--target is required');
    expect(() => parseTarget('ftp://x/v3', '--target')).toThrow('http(s) URL');
    expect(() => parseTarget('not a url /v3', '--target')).toThrow('http(s) URL');
  });

  it('refuses a production secret before anything is sent', () => {
    expect(() => credential('cid', 'svc_cs_live_abc', ['--client-id', '--client-secret'])).toThrow(
      'production credential',
    );
    expect(() => credential(undefined, 'svc_cs_test_abc', ['--client-id', '--client-secret'])).toThrow(
      '--client-id is required',
    );
    expect(credential('cid', 'svc_cs_test_abc', ['--client-id', '--client-secret'])).toEqual({
      clientId: 'cid',
      clientSecret: 'svc_cs_test_abc',
    });
  });

  it('reads --webhook-listen as host:port (IPv6 in brackets)', () => {
    expect(listenOption('0.0.0.0:9000')).toEqual({ host: '0.0.0.0', port: 9000 });
    expect(listenOption('[::1]:0')).toEqual({ host: '::1', port: 0 });
    for (const bad of ['9000', 'host:99999', ':80', 'a:b'])
      expect(() => listenOption(bad), bad).toThrow(UsageProblem);
  });

  it('selects checks by id, glob or area, repeatable and comma-separated', () => {
    const check = (id: string): Check => ({
      id,
      title: id,
      spec: 's',
      needs: 'black-box',
      run: async () => {},
    });
    const all = [
      'auth.token.issued',
      'auth.bearer.missing',
      'customers.create.status',
      'customers.create.location',
      'lists.customers.limit',
    ].map(check);
    const ids = (only?: string[], skip?: string[]) => selectChecks(all, only, skip).map((c) => c.id);
    expect(ids(patterns(['auth', 'customers.create.location']))).toEqual([
      'auth.token.issued',
      'auth.bearer.missing',
      'customers.create.location',
    ]);
    expect(ids(patterns(['*.create.*,lists']))).toEqual([
      'customers.create.status',
      'customers.create.location',
      'lists.customers.limit',
    ]);
    expect(ids(undefined, patterns(['auth.**']))).toEqual([
      'customers.create.status',
      'customers.create.location',
      'lists.customers.limit',
    ]);
    expect(ids(['customers'])).toEqual(['customers.create.status', 'customers.create.location']);
  });
});
