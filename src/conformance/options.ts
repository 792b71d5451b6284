// The command line of `credit-sandbox conformance`, checked before anything is sent: a usage
// error is exit 2 with a message that says what to change.
import { parseListen } from './webhooks/listener.js';

/** The flags as commander hands them over (strings; repeatable ones as arrays). */
export interface ConformanceFlags {
  target?: string;
  clientId?: string;
  clientSecret?: string;
  webhookListen?: string;
  webhookPublicUrl?: string;
  report?: string;
  junit?: string;
  only?: string[];
  skip?: string[];
  timeout?: string;
  deliveryWait?: string;
  compare?: string;
  compareClientId?: string;
  compareClientSecret?: string;
  json?: boolean;
  seed?: string;
  list?: boolean;
}

export class UsageProblem extends Error {
  override name = 'UsageProblem';
}

/** `500ms`, `30s`, `2m`, `1h`; a bare number is seconds. */
export function parseDuration(value: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match) throw new UsageProblem(`${flag} takes a duration like 30s, 2m or 500ms; got "${value}"`);
  const amount = Number(match[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = Math.round(amount * unit);
  if (ms < 100 || ms > 6 * 3_600_000)
    throw new UsageProblem(`${flag} must be between 100ms and 6h; got "${value}"`);
  return ms;
}

/** A base URL ending in `/v3` (a trailing slash is dropped). */
export function parseTarget(value: string | undefined, flag: string): string {
  if (!value)
    throw new UsageProblem(
      `${flag} is required: the API's base URL, ending in /v3 (e.g. http://127.0.0.1:8080/v3)`,
    );
  const url = value.trim().replace(/\/+$/, '');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new UsageProblem(`${flag} must be an http(s) URL; got "${value}"`);
  }
  if (!url.endsWith('/v3')) {
    throw new UsageProblem(
      `${flag} must end in /v3, the spec's path prefix (e.g. ${url}/v3); got "${value}"`,
    );
  }
  return url;
}

/** The spec's production prefix: the kit never runs against production. */
export function refuseLive(secret: string, flag: string): void {
  if (secret.startsWith('svc_cs_live_')) {
    throw new UsageProblem(
      `${flag} is a production credential (svc_cs_live_…); the kit creates customers, loans and webhook endpoints, so it runs only against a sandbox or staging credential (svc_cs_test_…)`,
    );
  }
}

export function credential(
  id: string | undefined,
  secret: string | undefined,
  flags: [string, string],
): { clientId: string; clientSecret: string } {
  if (!id) throw new UsageProblem(`${flags[0]} is required (or CREDIT_SANDBOX_CLIENT_ID)`);
  if (!secret) throw new UsageProblem(`${flags[1]} is required (or CREDIT_SANDBOX_CLIENT_SECRET)`);
  refuseLive(secret, flags[1]);
  return { clientId: id, clientSecret: secret };
}

export function listenOption(value: string | undefined): { host: string; port: number } | undefined {
  if (value === undefined) return undefined;
  const listen = parseListen(value);
  if (!listen)
    throw new UsageProblem(
      `--webhook-listen takes host:port, e.g. 127.0.0.1:9000 or 0.0.0.0:9000; got "${value}"`,
    );
  return listen;
}

export function publicUrlOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new UsageProblem(
      `--webhook-public-url must be an http(s) URL (a tunnel to the listener); got "${value}"`,
    );
  }
  return value;
}

/** Splits repeatable, comma-separated `--only` / `--skip` values. */
export function patterns(values: string[] | undefined): string[] | undefined {
  const list = (values ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
  return list.length > 0 ? list : undefined;
}
