// The lines `serve` prints once the server listens: URLs, storage, modes and the default credential.
import { DEFAULT_PARTNER_ID, type defaultCredentialFromEnv } from '../domain/default-partner.js';
import type { HostedSafety } from '../http/deps.js';
import type { RunningServer } from '../server.js';
import type { TenancySettings } from './tenancy-options.js';

/** What the banner shows beyond the running server. */
export interface BannerFacts {
  opts: Record<string, string | undefined>;
  rateLimit: number;
  safety: HostedSafety;
  tenancy: TenancySettings;
  startTimeMs: number | undefined;
  holidaysRegion: string | undefined;
  credential: ReturnType<typeof defaultCredentialFromEnv>;
}

/** Prints the start-up banner, a line at a time (as log lines with `--log-format json`). */
export function printBanner(
  server: RunningServer,
  { opts, rateLimit, safety, tenancy, startTimeMs, holidaysRegion, credential }: BannerFacts,
  print: (line: string) => void = (line) => console.log(line),
): void {
  const console = { log: print };
  const publicUrl = server.deps.config.publicUrl;
  console.log(`credit-sandbox listening on ${server.url}`);
  console.log(`  API       ${publicUrl}/v3`);
  console.log(`  docs      ${publicUrl}/docs   (OpenAPI: ${publicUrl}/v3/openapi.json)`);
  console.log(`  dashboard ${publicUrl}/dashboard`);
  console.log(
    `  storage   ${opts.database ? `PostgreSQL ${redactUrl(opts.database)}` : opts.data ? opts.data : 'in memory'}; clock ${opts.clock}; rate limit ${rateLimit || 'off'}`,
  );
  if (server.shared) {
    console.log(`  instance  ${server.shared.cluster.instanceId} at ${server.shared.cluster.url}`);
  }
  console.log(
    `  hosted safety ${safety.webhookPublicOnly ? `on (public https webhooks; quotas ${safety.quotas?.customers} customers, ${safety.quotas?.eventsKept} events)` : 'off'}; partner sign-up ${safety.partnerSignup ? 'on' : 'off'}`,
  );
  if (opts.seed !== undefined || startTimeMs !== undefined) {
    const start = startTimeMs === undefined ? 'now' : new Date(startTimeMs).toISOString();
    console.log(`  seed      ${opts.seed ?? 'none (random values)'}; clocks start at ${start}`);
  }
  console.log(`  partners  ${partnerBounds(tenancy, Boolean(server.shared))}`);
  console.log(
    `  metrics   ${tenancy.metrics ? `${publicUrl}/metrics${tenancy.metricsToken ? ' (bearer token)' : server.shared || opts.hosted ? ' (needs --metrics-token: hosted)' : ''}` : 'off'}`,
  );
  console.log(
    `  calendar  Brazilian banking days, ${holidaysRegion ? `national + ${holidaysRegion}` : 'national'}`,
  );
  console.log(`  default partner ${DEFAULT_PARTNER_ID}`);
  console.log(`    client_id      ${credential.clientId}`);
  console.log(`    client_secret  ${credential.clientSecret}`);
}

/** `lifetime 24h, at most 1000, idle ones unloaded after 15m`. */
function partnerBounds(tenancy: TenancySettings, shared: boolean): string {
  const ttl = tenancy.partnerTtlSeconds;
  const lifetime =
    ttl === undefined ? 'no default lifetime' : `lifetime ${ttl % 3600 === 0 ? `${ttl / 3600}h` : `${ttl}s`}`;
  const max = tenancy.maxPartners === undefined ? 'no limit' : `at most ${tenancy.maxPartners}`;
  const idle = tenancy.idleUnloadMs === undefined ? 'never' : `after ${tenancy.idleUnloadMs / 60_000}m`;
  return shared ? `${lifetime}, ${max}, idle ones unloaded ${idle}` : `${lifetime}, ${max}`;
}

/** The URL without its password, for the start-up banner. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
