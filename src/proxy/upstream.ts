/** The upstream's base URL, taken apart for forwarding. */
export interface Upstream {
  /** `https://staging.example.com` */
  origin: string;
  /** What comes before `/v3` in the upstream's path (`''`, or `/api` for `…/api/v3`). */
  root: string;
  /** The path the app's requests start with at the proxy: always `/v3`, as at the upstream. */
  clientPrefix: string;
  href: string;
}

/** An invalid `--upstream` (or `--target`): says what is wrong and what is expected. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

/**
 * Checks and splits an upstream base URL: http or https, ending in `/v3` (the API's base address
 * includes its version prefix), no query or fragment. The proxy serves the same `/v3` prefix, so an
 * app changes only the host and port it talks to.
 */
export function parseUpstream(text: string, flag = '--upstream'): Upstream {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UpstreamError(
      `${flag} ${JSON.stringify(text)} is not a URL; give the API base URL, e.g. https://staging.example.com/v3`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UpstreamError(`${flag} must be an http or https URL, got ${url.protocol}`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new UpstreamError(`${flag} takes the base URL alone (no query, fragment or credentials)`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v3')) {
    throw new UpstreamError(
      `${flag} must end in /v3 (the API's base address), e.g. ${url.origin}/v3; got ${url.pathname}`,
    );
  }
  return {
    origin: url.origin,
    root: path.slice(0, -'/v3'.length),
    clientPrefix: '/v3',
    href: `${url.origin}${path}`,
  };
}
