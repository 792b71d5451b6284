// The `serve` flags of a sandbox that runs for months: partner lifetimes and bounds, idle
// unloading, metrics and the log format (docs/scaling.md, "Running a sandbox for months").
import type { Command } from 'commander';
import { DEFAULT_IDLE_UNLOAD_MS } from '../cluster/cluster.js';
import { MAX_LIFETIME_SECONDS } from '../domain/partner-lifetime.js';
import { parseDuration } from '../engine/clock.js';

/** Defaults of a hosted sandbox (`--hosted` or `--database`); a developer's own has none. */
export const HOSTED_PARTNER_TTL = '24h';
export const HOSTED_MAX_PARTNERS = 1_000;

export type LogFormat = 'pretty' | 'json';

export interface TenancySettings {
  partnerTtlSeconds: number | undefined;
  maxPartners: number | undefined;
  idleUnloadMs: number | undefined;
  metrics: boolean;
  metricsToken: string | undefined;
  logFormat: LogFormat;
}

/** Adds the flags to `serve`. */
export function tenancyOptions(command: Command): Command {
  return command
    .option(
      '--partner-ttl <duration|off>',
      `lifetime of partners created through the API without expires_in, e.g. 2h, 7d (default: ${HOSTED_PARTNER_TTL} with --hosted or --database, off otherwise)`,
    )
    .option(
      '--max-partners <n|off>',
      `live partners the sandbox holds at most (default: ${HOSTED_MAX_PARTNERS} with --hosted or --database, off otherwise)`,
    )
    .option(
      '--idle-unload <duration|off>',
      'shared mode: a partner without a request for this long leaves memory (loaded again on its next request or job)',
      '15m',
    )
    .option('--metrics <on|off>', 'serve Prometheus metrics at GET /metrics', 'on')
    .option(
      '--metrics-token <token>',
      'a bearer token GET /metrics requires (needed on a hosted sandbox) (env CREDIT_SANDBOX_METRICS_TOKEN)',
      process.env.CREDIT_SANDBOX_METRICS_TOKEN || undefined,
    )
    .option(
      '--log-format <pretty|json>',
      "the server's own log lines: for people, or one JSON object each",
      'pretty',
    );
}

/** Reads the flags; throws a message naming the bad one. */
export function readTenancy(opts: Record<string, unknown>): TenancySettings {
  const hosted = Boolean(opts.database) || opts.hosted === true;
  const ttl = (opts.partnerTtl as string | undefined) ?? (hosted ? HOSTED_PARTNER_TTL : 'off');
  const max = (opts.maxPartners as string | undefined) ?? (hosted ? String(HOSTED_MAX_PARTNERS) : 'off');
  const idle = String(opts.idleUnload ?? `${DEFAULT_IDLE_UNLOAD_MS / 60_000}m`);
  const metrics = String(opts.metrics ?? 'on');
  const logFormat = String(opts.logFormat ?? 'pretty');
  if (metrics !== 'on' && metrics !== 'off') throw new Error(`--metrics must be on or off, got "${metrics}"`);
  if (logFormat !== 'pretty' && logFormat !== 'json')
    throw new Error(`--log-format must be pretty or json, got "${logFormat}"`);
  const ttlMs = offOrDuration(ttl, '--partner-ttl');
  if (ttlMs !== undefined && ttlMs > MAX_LIFETIME_SECONDS * 1000)
    throw new Error(`--partner-ttl must be at most ${MAX_LIFETIME_SECONDS / 86_400}d, got "${ttl}"`);
  let maxPartners: number | undefined;
  if (max !== 'off') {
    maxPartners = Number(max);
    if (!Number.isInteger(maxPartners) || maxPartners < 1)
      throw new Error(`--max-partners must be a positive integer or off, got "${max}"`);
  }
  const token = opts.metricsToken as string | undefined;
  if (token !== undefined && !/^[\x21-\x7e]{16,256}$/.test(token))
    throw new Error('--metrics-token must be 16..256 printable characters without spaces');
  return {
    partnerTtlSeconds: ttlMs === undefined ? undefined : ttlMs / 1000,
    maxPartners,
    idleUnloadMs: offOrDuration(idle, '--idle-unload'),
    metrics: metrics === 'on',
    metricsToken: token,
    logFormat,
  };
}

function offOrDuration(text: string, flag: string): number | undefined {
  if (text === 'off') return undefined;
  const ms = parseDuration(text);
  if (ms === undefined || ms < 1000)
    throw new Error(
      `${flag} must be a duration such as 90s, 15m, 2h or 7d (at least 1s), or off; got "${text}"`,
    );
  return ms;
}
