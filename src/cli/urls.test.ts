import { describe, expect, it } from 'vitest';
import { UsageError } from './context.js';
import { absoluteUrl, sandboxBaseUrl } from './urls.js';

describe('sandbox URLs', () => {
  it.each([
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080/v3', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080/v3/', 'http://127.0.0.1:8080'],
    ['https://sandbox.example.com/credit/v3', 'https://sandbox.example.com/credit'],
  ])('%s → %s', (given, base) => {
    expect(sandboxBaseUrl(given)).toBe(base);
  });

  it('refuses a URL without a scheme and says what to type', () => {
    expect(() => sandboxBaseUrl('localhost:8080')).toThrow(UsageError);
    expect(() => sandboxBaseUrl('localhost:8080')).toThrow('e.g. --url http://localhost:8080');
    expect(() => sandboxBaseUrl('127.0.0.1:8080', 'CREDIT_SANDBOX_URL')).toThrow(
      'e.g. CREDIT_SANDBOX_URL=http://127.0.0.1:8080',
    );
    expect(() => absoluteUrl('ftp://files', '--forward-to')).toThrow('e.g. --forward-to http://files');
  });
});
