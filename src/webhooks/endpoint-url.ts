import { ApiError } from '../domain/errors.js';
import { ipLiteral, isPublicAddress } from './public-address.js';

/** Longest accepted endpoint URL. */
export const MAX_URL_LENGTH = 2048;

/** Whether a URL hostname is a loopback address: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const octets = host.split('.');
  return (
    octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)
  );
}

/**
 * Checks an endpoint URL and returns it as given. HTTPS is required;
 * plain http only for loopback hosts and the hosts the sandbox was started with in
 * `--webhook-http-hosts` (e.g. `host.docker.internal`). An unparseable URL is malformed (400);
 * a parseable one refused by these rules is 422 with how to allow it.
 */
export function checkEndpointUrl(raw: string, httpHosts: readonly string[], publicOnly = false): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError(
      'validation_failed',
      `url "${raw}" is not an absolute URL (e.g. https://example.com/hooks).`,
      {
        param: 'url',
        errors: [{ param: 'url', detail: 'must be an absolute http(s) URL', code: 'invalid_url' }],
      },
    );
  }
  if (publicOnly) return checkPublicUrl(raw, url);
  if (url.protocol === 'https:') return raw;
  if (url.protocol !== 'http:') {
    throw new ApiError(
      'webhook_url_not_allowed',
      `webhook url must use https, not ${url.protocol.slice(0, -1)}: "${raw}".`,
      { param: 'url' },
    );
  }
  const host = url.hostname.toLowerCase();
  if (isLoopbackHost(host) || httpHosts.some((h) => h.toLowerCase() === host)) return raw;
  throw new ApiError(
    'webhook_url_not_allowed',
    `webhook url must be https; plain http is allowed only for loopback hosts (localhost, 127.0.0.0/8, [::1]). Start the sandbox with --webhook-http-hosts ${url.hostname} to allow http://${url.host}.`,
    { param: 'url' },
  );
}

/**
 * Hosted safety: https only, and no host that names a non-public address. IP literals and
 * localhost names are refused here; other names are checked again at each delivery, when they
 * are resolved (see public-address.ts).
 */
function checkPublicUrl(raw: string, url: URL): string {
  const refuse = (why: string) =>
    new ApiError(
      'webhook_url_not_allowed',
      `This sandbox is hosted (shared mode or --hosted): webhook urls must be https and reach a public address; ${why}. Expose your receiver on a public https URL (e.g. through a tunnel), or run the sandbox locally to deliver to private addresses.`,
      { param: 'url' },
    );
  if (url.protocol !== 'https:') throw refuse(`"${raw}" uses ${url.protocol.slice(0, -1)}`);
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) throw refuse(`${url.hostname} is loopback`);
  const literal = ipLiteral(host);
  if (literal !== undefined && !isPublicAddress(literal)) {
    throw refuse(`${literal} is a loopback, private, link-local or otherwise non-public address`);
  }
  return raw;
}
