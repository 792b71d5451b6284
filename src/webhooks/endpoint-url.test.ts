import { describe, expect, it } from 'vitest';
import { ApiError } from '../domain/errors.js';
import { checkEndpointUrl, isLoopbackHost } from './endpoint-url.js';

describe('isLoopbackHost', () => {
  it('knows localhost, 127.0.0.0/8 and [::1]', () => {
    for (const host of ['localhost', 'LocalHost', '127.0.0.1', '127.255.255.254', '[::1]']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of [
      '128.0.0.1',
      '127.0.0',
      '127.0.0.256',
      'localhost.example.com',
      '[::2]',
      '10.0.0.1',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('checkEndpointUrl', () => {
  const code = (fn: () => unknown) => {
    try {
      fn();
      return 'ok';
    } catch (error) {
      return error instanceof ApiError ? `${error.status} ${error.code}` : 'other';
    }
  };

  it('returns the URL as given when allowed', () => {
    expect(checkEndpointUrl('https://Example.com', [])).toBe('https://Example.com');
    expect(checkEndpointUrl('http://127.1:80/x', [])).toBe('http://127.1:80/x');
    expect(checkEndpointUrl('http://app:3000/x', ['app'])).toBe('http://app:3000/x');
  });

  it('answers 400 for unparseable URLs and 422 for refused ones', () => {
    expect(code(() => checkEndpointUrl('example.com/hooks', []))).toBe('400 validation_failed');
    expect(code(() => checkEndpointUrl('http://app:3000/x', []))).toBe('422 webhook_url_not_allowed');
    expect(code(() => checkEndpointUrl('ws://localhost/x', []))).toBe('422 webhook_url_not_allowed');
    expect(code(() => checkEndpointUrl('http://app.internal/x', ['app']))).toBe(
      '422 webhook_url_not_allowed',
    );
  });
});
