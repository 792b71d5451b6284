import { UsageError } from './errors.js';

/**
 * The sandbox base URL from `--url` / CREDIT_SANDBOX_URL. Both `http://host:8080` and the
 * README's `BASE` (`http://host:8080/v3`) are accepted: a trailing `/v3` is dropped because every
 * API path the CLI calls starts with `/v3`. A URL without a scheme is a usage error that says what
 * to type.
 */
export function sandboxBaseUrl(text: string, flag = '--url'): string {
  const url = absoluteUrl(text, flag);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v3$/, '');
  return `${url.origin}${path}`;
}

/** An absolute http(s) URL, or a usage error showing the fix (`localhost:3000` → `http://localhost:3000`). */
export function absoluteUrl(text: string, flag: string): URL {
  const example = `http://${text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '') || 'localhost:8080'}`;
  const hint = `${flag} needs a full URL with http:// or https://, e.g. ${flag}${flag.startsWith('--') ? ' ' : '='}${example}`;
  // `localhost:3000` parses as a URL whose scheme is "localhost": check the scheme explicitly.
  if (!/^https?:\/\//i.test(text)) throw new UsageError(`"${text}" has no http:// or https://. ${hint}`);
  try {
    return new URL(text);
  } catch {
    throw new UsageError(`"${text}" is not a valid URL. ${hint}`);
  }
}
