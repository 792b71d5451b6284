import type { Command } from 'commander';
import type { HostedSafety, PartnerQuotas } from '../http/deps.js';

/** Hosted defaults (documented in docs/scaling.md). */
export const DEFAULT_QUOTAS: PartnerQuotas = { customers: 10_000, eventsKept: 100_000 };

/** Adds the hosted-safety flags to `serve`. */
export function hostedSafetyOptions(command: Command): Command {
  return command
    .option(
      '--hosted-safety <on|off>',
      'webhooks only to public https addresses, per-partner quotas (default: on with --database or --hosted, off otherwise)',
    )
    .option('--partner-signup <on|off>', 'whether POST /v3/sandbox/partners creates partners', 'on')
    .option(
      '--quota-customers <n>',
      'with hosted safety, customers one partner may hold',
      String(DEFAULT_QUOTAS.customers),
    )
    .option(
      '--quota-events <n>',
      'with hosted safety, events kept per partner (oldest dropped)',
      String(DEFAULT_QUOTAS.eventsKept),
    );
}

/**
 * Reads the flags: hosted safety is on by default for a shared sandbox (`--database`) or a
 * `--hosted` one, off for a developer's own. Throws a message naming the bad flag.
 */
export function readHostedSafety(opts: Record<string, unknown>): HostedSafety {
  const onOff = (value: unknown, flag: string): boolean | undefined => {
    if (value === undefined) return undefined;
    if (value === 'on' || value === 'off') return value === 'on';
    throw new Error(`${flag} must be on or off, got "${String(value)}"`);
  };
  const count = (value: unknown, flag: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`${flag} must be a positive integer, got "${String(value)}"`);
    return n;
  };
  const hostedByDefault = Boolean(opts.database) || opts.hosted === true;
  const on = onOff(opts.hostedSafety, '--hosted-safety') ?? hostedByDefault;
  return {
    webhookPublicOnly: on,
    partnerSignup: onOff(opts.partnerSignup, '--partner-signup') ?? true,
    quotas: on
      ? {
          customers: count(opts.quotaCustomers, '--quota-customers'),
          eventsKept: count(opts.quotaEvents, '--quota-events'),
        }
      : undefined,
  };
}
